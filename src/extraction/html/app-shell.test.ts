import { describe, expect, it } from 'vitest';
import { appShellPage } from '../../../test/helpers/app-shell-page.js';
import { extractHtmlPage } from './extract-html-page.js';

const url = 'https://site.example/page';
const prose = (sentences: number) =>
  Array.from(
    { length: sentences },
    (_, index) => `Sentence ${index + 1} of the article says something a reader would want to know.`,
  ).join(' ');
const bundle = `<script src="/assets/index-4f2a.js"></script>`;
const article = { title: 'Tides', paragraphs: ['High tide is at noon.'] };

const shells: Record<string, string> = {
  'create-react-app shell (root div, noscript)': appShellPage({ article }),
  'data fetched by the script': appShellPage({ article: { dataUrl: '/api/article' } }),
  'Vue shell without noscript (#app)': `<html><head><title>Docs</title></head><body><div id="app"></div>${bundle}</body></html>`,
  'Next.js client page (empty #__next)': `<html><body><div id="__next"></div>${bundle}<script id="__NEXT_DATA__" type="application/json">{"props":{}}</script></body></html>`,
  'Angular (<app-root>) with a loading line': `<html><body><app-root>Loading...</app-root>${bundle}</body></html>`,
  'custom mount id, body of scripts only': `<html><body><div id="mount-here"></div>${bundle}</body></html>`,
  'a module loader inline': `<html><body><div id="app"></div><script type="module">import('/assets/app.js');</script></body></html>`,
  'noscript in another language, header text only': `<html><body><header><a href="/">Acme</a></header><noscript>Bitte aktivieren Sie JavaScript.</noscript><main id="content"></main>${bundle}</body></html>`,
};

const pages: Record<string, string> = {
  'a news article': `<html><body><article><h1>Tides</h1><p>${prose(12)}</p></article>${bundle}</body></html>`,
  'a server-rendered Next.js page': `<html><body><div id="__next"><main><h1>Tides</h1><p>${prose(8)}</p></main></div>${bundle}</body></html>`,
  'a long page whose noscript asks for JavaScript (comments)': `<html><body><article><p>${prose(10)}</p></article><noscript>Enable JavaScript to see the comments.</noscript></body></html>`,
  'a short page without scripts': '<html><body><h1>Gone</h1><p>This page has moved.</p></body></html>',
  'a short page with a script but no mount point': `<html><body><h1>Contact</h1><p>Write to us at the address below, we answer within a week.</p>${bundle}</body></html>`,
  'an empty #root without scripts to fill it':
    '<html><body><div id="root"></div><p>Opening hours: Monday to Friday.</p><script type="application/ld+json">{"@type":"Store"}</script></body></html>',
};

describe('app shells (Page.emptyShell)', () => {
  it.each(Object.entries(shells))('marks %s', (_name, html) => {
    expect(extractHtmlPage(html, url).emptyShell).toBe(true);
  });

  it.each(Object.entries(pages))('leaves %s alone', (_name, html) => {
    expect(extractHtmlPage(html, url).emptyShell).toBeUndefined();
  });
});

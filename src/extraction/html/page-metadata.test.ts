import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extractHtmlPage } from './extract-html-page.js';
import { readPageMetadata } from './page-metadata.js';

const head = (meta: string) =>
  `<html><head><title>T</title>${meta}</head><body><article><p>${'Some text of the article. '.repeat(20)}</p></article></body></html>`;

describe('page metadata for citations', () => {
  it('reads the site name from og:site_name, else application-name; none when the page gives none', () => {
    const read = (html: string) => readPageMetadata(parseHTML(html).document).siteName;
    expect(read(head('<meta property="og:site_name" content="The Daily Example">'))).toBe(
      'The Daily Example',
    );
    expect(read(head('<meta name="application-name" content="Example Wiki">'))).toBe('Example Wiki');
    expect(read(head(''))).toBeUndefined();
  });

  it('an extracted page carries its site name, author and date: what a citation of it takes', () => {
    const page = extractHtmlPage(
      head(
        '<meta property="og:site_name" content="The Daily Example"><meta name="author" content="Ada Lovelace"><meta property="article:published_time" content="2024-03-04T09:00:00Z">',
      ),
      'https://example.org/a',
    );
    expect(page).toMatchObject({
      siteName: 'The Daily Example',
      byline: 'Ada Lovelace',
      publishedAt: '2024-03-04T09:00:00.000Z',
    });
    expect('siteName' in extractHtmlPage(head(''), 'https://example.org/b')).toBe(false);
  });
});

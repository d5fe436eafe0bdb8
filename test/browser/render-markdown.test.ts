import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canRunBrowser, launchChromium } from './web-ui-browser.js';

// DOMPurify needs a real DOM (linkedom and the like are not enough), so the page's markdown
// renderer is unit-tested in Chromium: bundled alone, loaded into a blank tab, called directly.
let browser: Browser | undefined;
let page: Page | undefined;
beforeAll(async () => {
  if (!canRunBrowser) return;
  const bundle = await build({
    stdin: {
      contents:
        "import { renderMarkdown } from './render-markdown.ts'; window.render = (md, refs) => { const box = document.createElement('div'); box.append(renderMarkdown(md, refs)); document.body.append(box); return box.innerHTML; };",
      resolveDir: 'src/web',
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
  });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setContent('<!doctype html><html><body></body></html>');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
}, 60_000);
afterAll(() => browser?.close());

const refs = [
  { index: 1, url: 'https://a.example/', title: 'A', quote: 'q1' },
  { index: 2, url: 'https://b.example/', title: 'B', quote: 'q2' },
];
const render = (markdown: string, references = refs) =>
  page!.evaluate(
    ([md, r]) => (window as unknown as { render: (m: string, r: unknown) => string }).render(md, r),
    [markdown, references] as const,
  );

/** Each element of rendered HTML as "tag name=value...", parsed inert (a <template>). */
const elementsOf = (html: string) =>
  page!.evaluate((markup) => {
    const template = document.createElement('template');
    template.innerHTML = markup;
    return [...template.content.querySelectorAll('*')].map((element) =>
      [
        element.localName,
        ...[...element.attributes].map((attribute) => `${attribute.name}=${attribute.value}`),
      ].join(' '),
    );
  }, html);

describe.runIf(canRunBrowser)('renderMarkdown (in Chromium)', () => {
  it('renders markdown and turns known footnote markers into buttons, leaving code and unknown ones alone', async () => {
    const html = await render('**Paris**[^1][^2] and `x[^1]` and [^9].\n\n[^1]: https://a.example/ "A"');
    expect(html).toBe(
      '<p><strong>Paris</strong><sup><button type="button" class="fn" data-ref="1" aria-label="source 1" aria-haspopup="dialog">1</button></sup>' +
        '<sup><button type="button" class="fn" data-ref="2" aria-label="source 2" aria-haspopup="dialog">2</button></sup>' +
        ' and <code>x[^1]</code> and [^9].</p>\n',
    );
  });

  it('shows raw HTML as text and drops javascript: links and images: no element carries a handler, style or form', async () => {
    const html = await render(
      [
        'Text <script>window.__xss = 1</script> <img src=x onerror="window.__xss = 2">',
        '<b onclick="window.__xss = 3" style="color:red" class="x">bold</b>',
        '[link](javascript:window.__xss=4) <a href="data:text/html,hi">data</a> <iframe src="https://evil.example"></iframe>',
        '<form action="https://evil.example"><input name="k"><button>go</button></form>',
        '<svg><script>window.__xss = 5</script></svg> ![alt](https://tracker.example/p.gif)',
      ].join('\n\n'),
    );
    // Raw HTML stays text; the markdown link loses its javascript: href; the markdown image goes.
    await expect(elementsOf(html)).resolves.toEqual(['p', 'p', 'p', 'a', 'p']);
    expect(html).toContain('<p>Text &lt;script&gt;window.__xss = 1&lt;/script&gt; &lt;img src=x onerror=');
    expect(html).toContain('&lt;b onclick="window.__xss = 3" style="color:red" class="x"&gt;bold&lt;/b&gt;');
    expect(html).toContain('<a>link</a>');
    expect(html).toContain('&lt;form action="https://evil.example"&gt;');
    expect(html).not.toContain('tracker.example');
    await page!.waitForTimeout(100);
    await expect(page!.evaluate(() => (window as { __xss?: unknown }).__xss)).resolves.toBeUndefined();
  });

  it('keeps only bare line breaks and sub/superscripts of raw HTML', async () => {
    const html = await render('CO<sub>2</sub> and m<sup>2</sup><br>next <sup class="x">no</sup>');
    await expect(elementsOf(html)).resolves.toEqual(['p', 'sub', 'sup', 'br']);
    // Its stray closing tag is kept and ignored by the parser.
    expect(html).toContain('&lt;sup class="x"&gt;no</p>');
  });

  it('opens http(s) links in a new tab without an opener and keeps in-page anchors', async () => {
    const html = await render('[site](https://example.org/a) [top](#top)');
    expect(html).toBe(
      '<p><a href="https://example.org/a" target="_blank" rel="noopener noreferrer">site</a> <a href="#top">top</a></p>\n',
    );
  });
});

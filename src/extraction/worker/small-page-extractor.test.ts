import { afterAll, describe, expect, it } from 'vitest';
import { syndicatedCopy, wireStory } from '../../../test/fixtures/wire-story.js';
import { appShellPage } from '../../../test/helpers/app-shell-page.js';
import { makePdf } from '../../../test/helpers/make-pdf.js';
import { extractionConfigSchema } from '../../config/config-schema.js';
import type { ExtractedContent } from '../fetched-to-page.js';
import type { ContentExtractor, ContentInput } from './content-extractor.js';
import { htmlInput } from './content-extractor.js';
import { createExtractionPool } from './extraction-pool.js';
import { extractionStats } from './extraction-stats.js';
import { createSmallPageExtractor, isSmallPage, smallPageMaxBytes } from './small-page-extractor.js';

const settings = extractionConfigSchema.parse({ concurrency: 1 });
const pool = createExtractionPool(settings);
afterAll(() => pool.close());

/** The pool, recording what reaches it. */
function recordingPool(): ContentExtractor & { urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    extract(input, options) {
      urls.push(input.fetched.url);
      return pool.extract(input, options);
    },
  };
}

const html = (body: string, head = '<title>Small</title>') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const input = (page: string, url = 'https://site.test/page') =>
  htmlInput({ html: page, url, providerId: 'test' });
const bytesInput = (bytes: Uint8Array, contentType: string, url = 'https://site.test/doc'): ContentInput => ({
  requestedUrl: url,
  providerId: 'test',
  fetched: { url, status: 200, contentType, bytes, truncated: false },
});
const nested = (depth: number) => `${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}`;
const paragraphs = (count: number) =>
  Array.from(
    { length: count },
    (_, index) => `<p>Paragraph ${index} of a long page: ${'word '.repeat(40)}</p>`,
  ).join('');

/** Hand-written pages of several shapes, each under the size limit. */
const smallPages: Record<string, ContentInput> = {
  article: input(
    html(
      `<nav><a href="/">Home</a> <a href="/news">News</a></nav><article><h1>Tides at Brest</h1><p>High tide at Brest is at 12:04 today, low tide at 18:17.</p><p>See <a href="https://tides.example/cherbourg">Cherbourg</a> for the next port east.</p></article><footer>© 2026 Tides</footer>`,
      '<title>Tides at Brest</title><meta property="article:published_time" content="2026-05-01T00:00:00Z"><script type="application/ld+json">{"@type":"NewsArticle","headline":"Tides at Brest","author":{"name":"A. Marin"}}</script>',
    ),
  ),
  'news story with comments and teasers': input(
    html(
      `<article><h1>Health plans drop obesity drugs</h1>${wireStory
        .split('\n\n')
        .map((text) => `<p>${text}</p>`)
        .join('')}</article><section id="comments"><h2>12 Comments</h2>${Array.from(
        { length: 4 },
        (_, index) =>
          `<div class="comment"><b>user${index}</b> <time>2 days ago</time><p>I agree with point ${index}.</p><span>Reply</span></div>`,
      ).join('')}</section><aside><h3>More from Health Wire</h3><ul>${Array.from(
        { length: 4 },
        (_, index) =>
          `<li><a href="/story/${index}">Story ${index} headline</a> By Staff, May ${index + 1}</li>`,
      ).join('')}</ul></aside>`,
    ),
  ),
  'syndicated copy, plain lines': input(
    html(
      syndicatedCopy
        .split('\n\n')
        .map((text) => `<div>${text}</div>`)
        .join(''),
    ),
  ),
  'table and code': input(
    html(
      `<main><h1>Ports</h1><table><tr><th>Port</th><th>High tide</th></tr><tr><td>Brest</td><td>12:04</td></tr><tr><td>Cherbourg</td><td>13:10</td></tr></table><pre><code>const tide = 'high';</code></pre><noscript><img src="https://t.example/p.gif"></noscript></main>`,
    ),
  ),
  'app shell': input(appShellPage({ article: { title: 'Tides', paragraphs: ['High tide is at 12:04.'] } })),
  'latin-1 by its meta tag': bytesInput(
    new Uint8Array(
      Buffer.from(
        html('<p>Marée haute à Brest à 12 h 04.</p>', '<meta charset="iso-8859-1"><title>Marée</title>'),
        'latin1',
      ),
    ),
    'text/html',
  ),
  markdown: bytesInput(new TextEncoder().encode('# Notes\n\nA local markdown file.'), 'text/markdown'),
  json: bytesInput(new TextEncoder().encode('{"tide":"high","at":"12:04"}'), 'application/json'),
};

describe('isSmallPage', () => {
  it('takes complete HTML, text and JSON up to the size limit, nested as real pages are', () => {
    for (const page of Object.values(smallPages)) expect(isSmallPage(page)).toBe(true);
    expect(isSmallPage(input(html(nested(60))))).toBe(true);
  });

  it('leaves large, cut, deeply nested pages and every PDF or DOCX to the extraction processes', () => {
    const large = input(html(paragraphs(200)));
    expect(large.fetched.bytes.byteLength).toBeGreaterThan(smallPageMaxBytes);
    expect(isSmallPage(large)).toBe(false);
    const small = input(html('<p>Cut short</p>'));
    expect(isSmallPage({ fetched: { ...small.fetched, truncated: true } })).toBe(false);
    expect(isSmallPage(input(html(nested(65))))).toBe(false);
    expect(isSmallPage(bytesInput(makePdf({ pages: [['A small PDF']] }), 'application/pdf'))).toBe(false);
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(isSmallPage(bytesInput(new Uint8Array([0x50, 0x4b, 3, 4]), docx))).toBe(false);
  });
});

describe('createSmallPageExtractor', () => {
  it('parses a small page in this process, to the same page the extraction process gives', async () => {
    const recording = recordingPool();
    const extractor = createSmallPageExtractor({ pool: recording, limits: settings });
    for (const [shape, page] of Object.entries(smallPages)) {
      const inline = extractionStats.inline;
      const here = await extractor.extract(page);
      expect(extractionStats.inline, shape).toBe(inline + 1);
      const there: ExtractedContent = await pool.extract(page);
      expect(here, shape).toStrictEqual(there);
      expect(here.page.title.length, shape).toBeGreaterThan(0);
    }
    expect(recording.urls).toEqual([]);
  });

  it('sends a large page, a deeply nested one and a PDF to the extraction processes', async () => {
    const recording = recordingPool();
    const extractor = createSmallPageExtractor({ pool: recording, limits: settings });
    const inline = extractionStats.inline;
    const large = await extractor.extract(input(html(paragraphs(200)), 'https://site.test/large'));
    expect(large.page.text).toContain('Paragraph 199 of a long page');
    await extractor.extract(input(html(nested(100)), 'https://site.test/deep'));
    const pdf = await extractor.extract(
      bytesInput(
        makePdf({ pages: [['Annual figures inside the PDF']] }),
        'application/pdf',
        'https://site.test/r.pdf',
      ),
    );
    expect(pdf.page.text).toContain('Annual figures inside the PDF');
    expect(recording.urls).toEqual([
      'https://site.test/large',
      'https://site.test/deep',
      'https://site.test/r.pdf',
    ]);
    expect(extractionStats.inline).toBe(inline);
  });

  it('sends a small page whose parse outlasts the time budget to the extraction processes', async () => {
    const recording = recordingPool();
    const extractor = createSmallPageExtractor({ pool: recording, limits: settings, timeBudgetMs: 1 });
    // ~30 KB of table: several milliseconds to parse, far more than the budget of one.
    const rows = Array.from(
      { length: 600 },
      (_, index) => `<tr><td>row ${index}</td><td>${index * 7}</td></tr>`,
    );
    const table = input(html(`<h1>Tides</h1><table>${rows.join('')}</table>`), 'https://site.test/table');
    expect(isSmallPage(table)).toBe(true);
    const content = await extractor.extract(table);
    expect(recording.urls).toEqual(['https://site.test/table']);
    expect(content.page.text).toContain('row 599');
  });

  it('fails a small page as the extraction process does: same message and code', async () => {
    const extractor = createSmallPageExtractor({
      pool: recordingPool(),
      limits: { ...settings, maxNestingDepth: 16 },
    });
    const strict = createExtractionPool({ ...settings, maxNestingDepth: 16 });
    try {
      for (const page of [
        input(html(nested(20)), 'https://site.test/nested'),
        bytesInput(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png', 'https://site.test/x.png'),
      ]) {
        const there = await strict.extract(page).catch((error: unknown) => error);
        const here = await extractor.extract(page).catch((error: unknown) => error);
        expect(there).toMatchObject({ code: expect.stringMatching(/^page_/), providerId: 'test' });
        expect(here).toMatchObject({
          message: (there as Error).message,
          code: (there as { code: string }).code,
          providerId: 'test',
        });
      }
    } finally {
      strict.close();
    }
  });
});

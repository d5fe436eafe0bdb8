import { describe, expect, it } from 'vitest';
import { hostileDocuments } from '../../test/helpers/hostile-documents.js';
import { makeDocx } from '../../test/helpers/make-docx.js';
import { makePdf } from '../../test/helpers/make-pdf.js';
import { limitVariable } from '../config/setting-sources.js';
import { type ContentLimits, defaultContentLimits, limitSettings } from './content-limits.js';
import { docxType } from './content-types.js';
import { readZipEntries } from './documents/zip-entries.js';
import { fetchedToPage } from './fetched-to-page.js';
import { htmlToMarkdown } from './html/html-to-markdown.js';

function read(
  body: string | Uint8Array,
  contentType: string,
  limits: Partial<ContentLimits> = {},
  truncated = false,
) {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return fetchedToPage({
    requestedUrl: 'https://site.test/doc',
    fetched: { url: 'https://site.test/doc', status: 200, contentType, bytes, truncated },
    providerId: 'test',
    limits: { ...defaultContentLimits, ...limits },
  });
}

describe('limitSettings', () => {
  it('names each limit by the variable its setting declares', () => {
    for (const { path, variable } of Object.values(limitSettings)) expect(variable).toBe(limitVariable(path));
  });
});

describe('fetchedToPage: limits before work, each named when hit', () => {
  it('refuses a page nested deeper than maxNestingDepth before parsing it, and reads one within it', async () => {
    await expect(
      read(hostileDocuments.nestedDivs(300), 'text/html', { maxNestingDepth: 256 }),
    ).rejects.toMatchObject({
      code: 'page_over_limit',
      message:
        'https://site.test/doc nests its elements more than 256 deep (limit: DEEPSEARCH_MAX_NESTING_DEPTH)',
    });
    const within = await read(hostileDocuments.nestedDivs(100), 'text/html', { maxNestingDepth: 256 });
    expect(within.page.text).toContain('Deep inside.');
  });

  it('writes a table over maxTableCells as plain rows, and leaves smaller ones to the GFM plugin', async () => {
    const large = await read(hostileDocuments.bigTable(600), 'text/html', { maxTableCells: 500 });
    const lines = large.page.markdown.split('\n').filter((line) => line.startsWith('|'));
    expect(lines.slice(0, 3)).toEqual([
      '| r0c0 | r0c1 | r0c2 | r0c3 | r0c4 | r0c5 | r0c6 | r0c7 | r0c8 | r0c9 |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      '| r1c0 | r1c1 | r1c2 | r1c3 | r1c4 | r1c5 | r1c6 | r1c7 | r1c8 | r1c9 |',
    ]);
    expect(lines).toHaveLength(61);
    const aligned =
      '<table><tr><td align="center">a|b</td><td>c</td></tr><tr><td align="center">d</td><td>e</td></tr></table>';
    expect(htmlToMarkdown(aligned, { maxTableCells: 500 })).toContain('| :---: | --- |');
    expect(htmlToMarkdown(aligned, { maxTableCells: 3 })).toBe('| a\\|b | c |\n| --- | --- |\n| d | e |');
  });

  it('reads the first maxPdfPages pages of a longer PDF and says so', async () => {
    const content = await read(hostileDocuments.manyPagesPdf(12), 'application/pdf', { maxPdfPages: 5 });
    expect(content.pages).toEqual(['Page 1', 'Page 2', 'Page 3', 'Page 4', 'Page 5']);
    expect(content.notes).toEqual(['read the first 5 of 12 pages (limit: DEEPSEARCH_MAX_PDF_PAGES)']);
  });

  it('refuses a PDF with a stream that inflates past maxInflatedBytes before PDF.js inflates it', async () => {
    const pdf = hostileDocuments.inflatingPdf(3);
    await expect(read(pdf, 'application/pdf', { maxInflatedBytes: 2 * 1024 * 1024 })).rejects.toMatchObject({
      code: 'page_over_limit',
      message:
        'https://site.test/doc is a PDF with a stream that inflates to more than 2 MB (limit: DEEPSEARCH_MAX_INFLATED_BYTES)',
    });
    // Within the limit it is read, and its text is cut at maxChars with a note that says so.
    const content = await read(pdf, 'application/pdf', { maxInflatedBytes: 4 * 1024 * 1024, maxChars: 5000 });
    expect(content.page.text.length).toBeLessThanOrEqual(5000);
    expect(content.page.text).toMatch(/^All work and no play makes a dull page\./);
    expect(content.notes).toEqual([
      expect.stringMatching(/^cut at 5,000 of [\d,]+ characters \(limit: DEEPSEARCH_MAX_EXTRACTED_CHARS\)$/),
    ]);
  });

  it('refuses a DOCX whose parts inflate past maxInflatedBytes, from its central directory', async () => {
    const bomb = hostileDocuments.docxZipBomb(100);
    expect(bomb.length).toBeLessThan(500_000);
    await expect(read(bomb, docxType)).rejects.toMatchObject({
      code: 'page_over_limit',
      message: expect.stringMatching(
        /^https:\/\/site\.test\/doc is a DOCX whose parts inflate to 100(\.\d)? MB, more than 64 MB \(limit: DEEPSEARCH_MAX_INFLATED_BYTES\)$/,
      ),
    });
    const memo = await read(makeDocx({ paragraphs: ['Memo on backups.', 'Backups run nightly.'] }), docxType);
    expect(memo.page.markdown).toBe('Memo on backups.\n\nBackups run nightly.');
  });

  it('reports a truncated, a self-referencing and a garbage PDF as unreadable, saying why', async () => {
    for (const pdf of [
      hostileDocuments.truncatedPdf(),
      hostileDocuments.selfReferencingPdf(),
      hostileDocuments.garbagePdf(),
    ]) {
      await expect(read(pdf, 'application/pdf')).rejects.toMatchObject({
        code: 'page_unreadable',
        message: expect.stringMatching(/^https:\/\/site\.test\/doc is not a PDF that can be read: \w/),
      });
    }
  });

  it('refuses a PDF or DOCX cut by the size cap, and marks an HTML page cut by it', async () => {
    const pdf = makePdf({ pages: [['One page.']] });
    await expect(read(pdf.subarray(0, 200), 'application/pdf', {}, true)).rejects.toThrow(
      'https://site.test/doc is larger than 200 bytes, the most that is read (limit: DEEPSEARCH_READER_MAX_BYTES)',
    );
    const page = await read('<html><body><main><p>The first part of a long page.</p>', 'text/html', {}, true);
    expect(page.notes).toEqual(['only the first 55 bytes were read (limit: DEEPSEARCH_READER_MAX_BYTES)']);
  });
});

describe('readZipEntries', () => {
  it('lists the entries and their declared sizes without inflating, and refuses what is no ZIP', () => {
    const entries = readZipEntries(hostileDocuments.docxZipBomb(10));
    expect(entries.map((entry) => entry.name)).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'word/document.xml',
    ]);
    expect(entries[2]!.uncompressedSize).toBeGreaterThan(10 * 1024 * 1024);
    expect(() => readZipEntries(new TextEncoder().encode('not a zip'))).toThrow('not a ZIP archive');
  });
});

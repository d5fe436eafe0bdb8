import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostileDocuments } from '../../test/helpers/hostile-documents.js';
import { extractionConfigSchema } from '../config/config-schema.js';
import { createExtractionPool } from '../extraction/worker/extraction-pool.js';
import { createLexicalEmbedding } from '../providers/embedding/lexical-embedding.js';
import type { IngestReport } from './ingest-documents.js';
import { createKnowledgeBase, type KnowledgeBase } from './knowledge-base.js';

let folder: string;
let kb: KnowledgeBase | undefined;
const extraction = createExtractionPool(extractionConfigSchema.parse({ concurrency: 1, maxPdfPages: 5 }));

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kb-limits-'));
});
afterEach(() => {
  kb?.close();
  extraction.close();
  rmSync(folder, { recursive: true, force: true });
});

function open(maxFileBytes: number): KnowledgeBase {
  kb = createKnowledgeBase({
    file: join(folder, 'kb.sqlite'),
    embedding: createLexicalEmbedding(),
    extractor: extraction,
    maxFileBytes,
  });
  return kb;
}

/** The report has exactly this note and this failure, each for its file of the folder. */
function expectNoteAndFailure(
  report: IngestReport,
  expected: { note: [file: string, note: string]; failure: [file: string, reason: RegExp] },
): void {
  expect(report.notes).toEqual([{ source: join(folder, expected.note[0]), note: expected.note[1] }]);
  expect(report.failed).toEqual([
    { source: join(folder, expected.failure[0]), reason: expect.stringMatching(expected.failure[1]) },
  ]);
}

describe('kb add under the limits', () => {
  it('sizes files before reading: cuts long text and says so, refuses a long PDF, goes on', async () => {
    writeFileSync(join(folder, 'long.txt'), `Harbour notes. ${'The tide was logged again. '.repeat(400)}`);
    writeFileSync(join(folder, 'long.pdf'), hostileDocuments.manyPagesPdf(30));
    writeFileSync(join(folder, 'short.md'), '# Short\n\nA short note about the harbour.\n');
    const report = await open(2000).add({
      inputs: ['long.txt', 'long.pdf', 'short.md'],
      cwd: folder,
      collection: 'c',
    });
    expect(report.added.map((path) => path.split('/').at(-1))).toEqual(['long.txt', 'short.md']);
    expectNoteAndFailure(report, {
      note: ['long.txt', 'only the first 2000 bytes were read (limit: DEEPSEARCH_KB_MAX_FILE_BYTES)'],
      failure: [
        'long.pdf',
        /^\d+ KB, larger than kb add reads \(2 KB\) \(limit: DEEPSEARCH_KB_MAX_FILE_BYTES\)$/,
      ],
    });
    const stored = kb!.store().findDocument('c', join(folder, 'long.txt'));
    expect(stored?.title).toBe('long');
  });

  it('reads the first pages of a long PDF, says so in the report, and refuses a DOCX zip bomb', async () => {
    writeFileSync(join(folder, 'book.pdf'), hostileDocuments.manyPagesPdf(12));
    writeFileSync(join(folder, 'bomb.docx'), hostileDocuments.docxZipBomb(100));
    const report = await open(64 * 1024 * 1024).add({
      inputs: ['book.pdf', 'bomb.docx'],
      cwd: folder,
      collection: 'c',
    });
    expect(report.added).toEqual([join(folder, 'book.pdf')]);
    expectNoteAndFailure(report, {
      note: ['book.pdf', 'read the first 5 of 12 pages (limit: DEEPSEARCH_MAX_PDF_PAGES)'],
      failure: [
        'bomb.docx',
        /is a DOCX whose parts inflate to 100(\.\d)? MB, more than 64 MB \(limit: DEEPSEARCH_MAX_INFLATED_BYTES\)$/,
      ],
    });
    expect(kb!.store().findDocument('c', join(folder, 'book.pdf'))?.pages).toBe(5);
  });
});

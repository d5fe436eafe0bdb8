import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDocx } from '../../test/helpers/make-docx.js';
import { makePdf } from '../../test/helpers/make-pdf.js';
import { createLexicalEmbedding } from '../providers/embedding/lexical-embedding.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { LlmClient, StructuredRequest } from '../providers/spec/llm-client.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import { wrapSearchProvider } from '../providers/spec/wrap-provider.js';
import { createKnowledgeBase, type KnowledgeBase } from './knowledge-base.js';
import { createKnowledgeReader } from './knowledge-reader.js';
import { createLocalHitsMiddleware, createLocalSearch } from './local-search-provider.js';

let folder: string;
let kb: KnowledgeBase;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kb-test-'));
});
afterEach(() => {
  kb?.close();
  rmSync(folder, { recursive: true, force: true });
});

function writeCorpus() {
  mkdirSync(join(folder, 'docs', 'sub'), { recursive: true });
  writeFileSync(
    join(folder, 'docs', 'audit.md'),
    '# Security audit 2023\n\n## Key rotation\n\nThe audit found API keys rotated every 400 days.\n\n' +
      '| System | Rotation |\n|---|---|\n| billing | 400 days |\n\n## Staff\n\nThe audit was led by Maria Okafor of Northwind Consulting.\n',
  );
  writeFileSync(
    join(folder, 'docs', 'sub', 'northwind.txt'),
    'Northwind Consulting is a firm based in Leeds.\n',
  );
  writeFileSync(
    join(folder, 'docs', 'spec.html'),
    '<html><head><title>Token spec</title></head><body><main><h1>Token spec</h1><p>Session tokens expire after one hour of inactivity.</p></main></body></html>',
  );
  writeFileSync(
    join(folder, 'docs', 'report.pdf'),
    makePdf({ pages: [['Quarterly report, first page.'], ['Revenue grew by 12 percent in spring.']] }),
  );
  writeFileSync(join(folder, 'docs', 'broken.pdf'), 'not a pdf at all');
  writeFileSync(join(folder, 'docs', 'skip.draft.md'), '# Draft\n\nUnfinished text about key rotation.\n');
}

/** The lexical vectors posing as an embedding service's: real vectors that take part in the fusion. */
const lexicalService = (): EmbeddingProvider => ({
  ...createLexicalEmbedding(),
  id: 'test',
  model: 'lexical-service',
  builtin: false,
});

function open(embedding: EmbeddingProvider = createLexicalEmbedding(), vectorBackend?: 'exact-scan') {
  kb?.close();
  kb = createKnowledgeBase({ file: join(folder, 'kb.sqlite'), embedding, vectorBackend });
  return kb;
}

describe('knowledge base', () => {
  it('ingests md, txt, html, pdf and docx, reports a broken file and goes on, honours exclude globs', async () => {
    writeCorpus();
    writeFileSync(
      join(folder, 'docs', 'memo.docx'),
      makeDocx({ paragraphs: ['Memo on backups.', 'Backups run nightly at 2am.'] }),
    );
    const report = await open().add({
      inputs: ['docs'],
      cwd: folder,
      collection: 'work',
      exclude: ['*.draft.md'],
    });
    expect(report.added.map((path) => path.split('/').at(-1)).sort()).toEqual([
      'audit.md',
      'memo.docx',
      'northwind.txt',
      'report.pdf',
      'spec.html',
    ]);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]!.source).toMatch(/broken\.pdf$/);
    const store = kb.store();
    const titles = store.listDocuments().map((document) => document.title);
    expect(titles).toContain('Security audit 2023');
    expect(titles).toContain('Token spec');
    const pdfHit = (await kb.search({ query: 'revenue grew', limit: 1 })).hits[0]!;
    expect(pdfHit.page).toBe(2);
    const docxHit = (await kb.search({ query: 'backups nightly', limit: 1 })).hits[0]!;
    expect(docxHit.source).toMatch(/memo\.docx$/);
    const tableHit = (await kb.search({ query: 'billing rotation', limit: 5 })).hits.find(
      (hit) => hit.kind === 'table',
    );
    expect(tableHit?.text).toContain('| billing | 400 days |');
    expect(tableHit?.heading).toBe('Security audit 2023 > Key rotation');
  });

  it('skips unchanged files, replaces changed ones and skips copies as duplicates', async () => {
    writeCorpus();
    await open().add({ inputs: ['docs/audit.md', 'docs/sub'], cwd: folder, collection: 'default' });
    writeFileSync(join(folder, 'docs', 'copy.md'), '# Draft\n\nUnfinished text about key rotation.\n');
    writeFileSync(join(folder, 'docs', 'sub', 'northwind.txt'), 'Northwind Consulting moved to York.\n');
    const again = await kb.add({
      inputs: ['docs/audit.md', 'docs/sub', 'docs/skip.draft.md', 'docs/copy.md'],
      cwd: folder,
      collection: 'default',
    });
    expect(again.unchanged).toEqual([join(folder, 'docs', 'audit.md')]);
    expect(again.updated).toEqual([join(folder, 'docs', 'sub', 'northwind.txt')]);
    expect(again.duplicates).toEqual([
      { source: join(folder, 'docs', 'copy.md'), of: join(folder, 'docs', 'skip.draft.md') },
    ]);
    const hits = (await kb.search({ query: 'Northwind', limit: 5 })).hits;
    expect(hits.some((hit) => hit.text.includes('York'))).toBe(true);
    expect(hits.some((hit) => hit.text.includes('Leeds'))).toBe(false);
  });

  it('fuses full text and vectors, explains each score, and expands from entities of the top chunks', async () => {
    writeCorpus();
    await open(lexicalService(), 'exact-scan').add({
      inputs: ['docs'],
      cwd: folder,
      collection: 'default',
    });
    const result = await kb.search({ query: 'who led the key rotation audit', limit: 5 });
    expect(result.vectorSearch).toBe(true);
    const top = result.hits[0]!;
    expect(top.explain.fullText?.rank).toBeGreaterThan(0);
    expect(top.explain.vector?.rank).toBeGreaterThan(0);
    expect(top.explain.fused).toBeGreaterThan(0);
    expect(result.entities).toContain('Northwind Consulting');
    const expanded = result.hits.find((hit) => hit.source.endsWith('northwind.txt'));
    expect(expanded?.explain.expansion?.entity).toBe('Northwind Consulting');
    const plain = await kb.search({ query: 'who led the key rotation audit', limit: 5, expand: false });
    expect(plain.hits.find((hit) => hit.source.endsWith('northwind.txt'))?.explain.expansion).toBeUndefined();
    expect(kb.store().vectorBackend).toBe('exact-scan');
  });

  it('leaves the built-in lexical vectors out of the ranking: BM25 already ranks by the same words', async () => {
    writeCorpus();
    await open().add({ inputs: ['docs/audit.md'], cwd: folder, collection: 'default' });
    const result = await kb.search({ query: 'who led the key rotation audit', limit: 5 });
    expect(result.vectorSearch).toBe(false);
    expect(result.hits[0]!.explain.fullText?.rank).toBe(1);
    expect(result.hits.every((hit) => hit.explain.vector === undefined)).toBe(true);
  });

  it('re-embeds every chunk when the embedding model changes', async () => {
    writeCorpus();
    await open(lexicalService()).add({ inputs: ['docs/audit.md'], cwd: folder, collection: 'default' });
    const other: EmbeddingProvider = {
      specificationVersion: 'v1',
      id: 'test',
      model: 'tiny-3',
      builtin: false,
      embed: async (texts) => ({ vectors: texts.map(() => new Float32Array([1, 0, 0])), failures: [] }),
    };
    expect((await kb.search({ query: 'audit', limit: 1 })).vectorSearch).toBe(true);
    const report = await open(other).add({ inputs: ['docs/audit.md'], cwd: folder, collection: 'default' });
    expect(report.reembedded).toBe(kb.store().stats().chunks);
    expect(kb.store().embeddingModel()).toEqual({ model: 'test/tiny-3', dimensions: 3 });
    expect((await kb.search({ query: 'audit', limit: 1 })).vectorSearch).toBe(true);
    // The old model's vectors are gone: a search with it falls back to full text only.
    expect((await open(lexicalService()).search({ query: 'audit', limit: 1 })).vectorSearch).toBe(false);
  });

  it('serves kb: hits as a search provider and reads them back as pages holding the quoted text', async () => {
    writeCorpus();
    await open().add({ inputs: ['docs'], cwd: folder, collection: 'default' });
    const local = createLocalSearch({ knowledgeBase: kb });
    const hits = await local.search('session tokens expire', { count: 3 });
    expect(hits[0]!.url).toMatch(/^kb:default\/[0-9a-f]{12}#chunk-0$/);
    expect(hits[0]!.title).toContain('Token spec');
    const page = await createKnowledgeReader({ knowledgeBase: kb }).read(hits[0]!.url);
    expect(page.url).toBe(hits[0]!.url);
    expect(page.text).toContain('Session tokens expire after one hour of inactivity.');
    const merged = wrapSearchProvider<SearchProvider>({
      provider: {
        specificationVersion: 'v1',
        id: 'web',
        search: async () => [{ url: 'https://example.org/', title: 'Web', snippet: 'web' }],
      },
      middleware: createLocalHitsMiddleware({ local }),
    });
    expect(merged.id).toBe('web+local');
    const mixed = await merged.search('session tokens');
    expect(mixed[0]!.title).toMatch(/^\[local\] /);
    expect(mixed.at(-1)!.url).toBe('https://example.org/');
    kb.store().removeDocuments(join(folder, 'docs', 'spec.html'));
    await expect(createKnowledgeReader({ knowledgeBase: kb }).read(hits[0]!.url)).rejects.toThrow(
      /not in the knowledge base/,
    );
  });

  it('--analyze stores summaries, typed entities and normalised relations, searchable and used by expansion', async () => {
    writeCorpus();
    const requests: Array<StructuredRequest<unknown>> = [];
    const llm: LlmClient = {
      specificationVersion: 'v1',
      generateText: () => Promise.reject(new Error('analysis makes structured calls only')),
      async generateObject<T>(request: StructuredRequest<T>) {
        requests.push(request as StructuredRequest<unknown>);
        const object =
          request.schemaName === 'document_summary'
            ? { summary: 'Compliance review of credential hygiene.' }
            : request.prompt.includes('Maria Okafor')
              ? {
                  summary: 'Maria Okafor led the audit.',
                  entities: [{ name: 'Northwind Consulting', type: 'Organization' }],
                  relationships: [
                    { subject: 'Maria Okafor', predicate: 'Was Employed By', object: 'Northwind Consulting' },
                  ],
                }
              : { summary: 'Keys rotate slowly.', entities: [], relationships: [], insights: [] };
        return {
          object: request.schema.parse(object),
          usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
          usageEstimated: false,
          parseFailures: 0,
          repairs: 0,
          reasoning: '',
          model: 'fake',
          durationMs: 1,
        };
      },
    };
    await open().add({ inputs: ['docs/audit.md', 'docs/sub'], cwd: folder, collection: 'default' });
    const estimates: number[] = [];
    const report = await kb.add({
      inputs: ['docs/audit.md'],
      cwd: folder,
      collection: 'default',
      analyze: { llm, onEstimate: (estimate) => estimates.push(estimate.calls) },
    });
    // Stored before without analysis, so --analyze redoes it.
    expect(report.updated).toHaveLength(1);
    expect(estimates[0]).toBeGreaterThan(0);
    expect(report.analysis).toEqual({
      calls: requests.length,
      usage: {
        promptTokens: 100 * requests.length,
        completionTokens: 20 * requests.length,
        totalTokens: 120 * requests.length,
      },
      failures: 0,
    });
    expect(requests.every((request) => request.role === 'analyzer')).toBe(true);
    const stored = kb
      .store()
      .listDocuments()
      .find((document) => document.source.endsWith('audit.md'))!;
    expect(stored.analyzed).toBe(1);
    const chunk = kb
      .store()
      .documentChunks(stored.id)
      .find((item) => item.text.includes('Maria Okafor'))!;
    expect(JSON.parse(chunk.analysis!).relationships[0].predicate).toBe('employed_by');
    expect(JSON.parse(chunk.analysis!).entities[0].type).toBe('organization');
    // Words only in the document summary find it.
    const bySummary = await kb.search({ query: 'credential hygiene', limit: 3, expand: false });
    expect(bySummary.hits[0]?.source).toMatch(/audit\.md$/);
    const expanded = await kb.search({ query: 'who led the audit', limit: 5 });
    expect(expanded.entities).toEqual(['Northwind Consulting']);
  });
});

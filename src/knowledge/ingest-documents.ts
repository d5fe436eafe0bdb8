import { stat } from 'node:fs/promises';
import { formatSize, limitLabel } from '../extraction/content-limits.js';
import type { ContentExtractor } from '../extraction/worker/content-extractor.js';
import { readFileHead } from '../providers/reader/file/read-file-head.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { LlmClient, TokenUsage } from '../providers/spec/llm-client.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import { type AnalysisEstimate, analyzeDocument, estimateAnalysis } from './analysis/analyze-document.js';
import { chunkDocument, type DocumentChunk, defaultDocumentChunkChars } from './chunk-document.js';
import { collectSources, type SourceItem, type SourceProblem } from './collect-sources.js';
import { embeddingText, syncEmbeddingModel } from './embed-chunks.js';
import { contentHash } from './knowledge-records.js';
import type { KnowledgeStore } from './knowledge-store.js';
import { type ReadDocument, readDocumentFile, readDocumentUrl } from './read-document.js';

export interface IngestProgress {
  done: number;
  total: number;
  /** The source being read. */
  current: string;
  failed: number;
  elapsedMs: number;
}

export interface IngestOptions {
  store: KnowledgeStore;
  embedding: EmbeddingProvider;
  /** Reads URLs; without one a URL input is reported as a failure. */
  reader?: PageReader;
  /** Parses files (the runtime's extraction pool); default the default settings' pool. */
  extractor?: ContentExtractor;
  /** Largest file read: longer text is cut there (and says so), other files are refused. Default 64 MiB. */
  maxFileBytes?: number;
  inputs: readonly string[];
  cwd: string;
  collection: string;
  include?: readonly string[];
  exclude?: readonly string[];
  signal?: AbortSignal;
  onProgress?: (progress: IngestProgress) => void;
  /** --analyze: an LLM analyses each new or changed document; costs are estimated first. */
  analyze?: {
    llm: LlmClient;
    /** Told before any call, with the estimate for the sources that may need analysis. */
    onEstimate?: (estimate: AnalysisEstimate & { documents: number }) => void;
  };
}

export interface IngestReport {
  added: string[];
  updated: string[];
  unchanged: string[];
  /** Same content as a document already in the collection under another source: skipped. */
  duplicates: Array<{ source: string; of: string }>;
  failed: SourceProblem[];
  /** Sources stored in part, and what was left out (pages past the limit, a cut), naming the limit. */
  notes: Array<{ source: string; note: string }>;
  chunks: number;
  /** Chunks embedded again because the embedding model changed. */
  reembedded: number;
  durationMs: number;
  /** What --analyze used. */
  analysis?: { calls: number; usage: TokenUsage; failures: number };
}

/**
 * Adds files, folders and URLs to a collection: unchanged sources (same content hash) are skipped,
 * changed ones replaced, copies of a stored document skipped as duplicates; a source that fails
 * is reported and the batch goes on.
 */
export async function ingestDocuments(options: IngestOptions): Promise<IngestReport> {
  const started = performance.now();
  const { items, problems } = await collectSources(options);
  const report: IngestReport = {
    added: [],
    updated: [],
    unchanged: [],
    duplicates: [],
    failed: [...problems],
    notes: [],
    chunks: 0,
    reembedded: await syncEmbeddingModel(options),
    durationMs: 0,
  };
  if (options.analyze) {
    report.analysis = {
      calls: 0,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      failures: 0,
    };
    options.analyze.onEstimate?.(await estimateFor(items));
  }
  for (const [index, item] of items.entries()) {
    options.signal?.throwIfAborted();
    const source = item.kind === 'file' ? item.path : item.url;
    options.onProgress?.({
      done: index,
      total: items.length,
      current: source,
      failed: report.failed.length,
      elapsedMs: performance.now() - started,
    });
    try {
      await ingestOne(options, item, source, report);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      report.failed.push({ source, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  options.onProgress?.({
    done: items.length,
    total: items.length,
    current: '',
    failed: report.failed.length,
    elapsedMs: performance.now() - started,
  });
  report.durationMs = performance.now() - started;
  return report;
}

async function ingestOne(options: IngestOptions, item: SourceItem, source: string, report: IngestReport) {
  const { store, collection } = options;
  let document: ReadDocument;
  let hash: string;
  if (item.kind === 'file') {
    const { bytes, truncated } = await readSourceFile(item.path, options.maxFileBytes ?? defaultMaxFileBytes);
    hash = contentHash(bytes);
    if (unchanged(options, source, hash, report)) return;
    const { extractor, signal } = options;
    document = await readDocumentFile(item.path, { bytes, truncated, extractor, signal });
  } else {
    if (!options.reader) throw new Error('no reader configured for URLs');
    document = await readDocumentUrl(item.url, options.reader, options.signal);
    hash = contentHash(document.text);
    if (unchanged(options, source, hash, report)) return;
  }
  const copy = store.findByHash(collection, hash);
  if (copy && copy.source !== source) {
    report.duplicates.push({ source, of: copy.source });
    return;
  }
  if (!document.text.trim()) throw new Error('no text found in it');
  const chunks = chunkDocument({ text: document.text, pages: document.pages });
  const embedded = await options.embedding.embed(
    chunks.map((chunk) => embeddingText({ title: document.title, heading: chunk.heading, text: chunk.text })),
    { task: 'passage', signal: options.signal },
  );
  const analysis = options.analyze ? await analyze(options, document.title, chunks, report) : undefined;
  const existed = store.findDocument(collection, source) !== undefined;
  store.putDocument({
    collection,
    source,
    title: document.title,
    contentType: document.contentType,
    contentHash: hash,
    text: document.text,
    pages: document.pages?.length,
    chunks,
    vectors: embedded.vectors,
    analysis,
  });
  report.chunks += chunks.length;
  (existed ? report.updated : report.added).push(source);
  for (const note of document.notes ?? []) report.notes.push({ source, note });
}

const defaultMaxFileBytes = 64 * 1024 * 1024;
const textTypes = /\.(md|markdown|txt|text)$/i;

/**
 * The file's bytes up to the cap, its size checked before reading: a longer text file is read up
 * to the cap (its document says so), a longer PDF, DOCX or HTML file is refused (its first part is
 * no file at all).
 */
async function readSourceFile(path: string, maxBytes: number) {
  const { size } = await stat(path);
  if (size > maxBytes && !textTypes.test(path)) {
    throw new Error(
      `${formatSize(size)}, larger than kb add reads (${formatSize(maxBytes)}) ${limitLabel('maxFileBytes')}`,
    );
  }
  return readFileHead({ path, maxBytes });
}

function unchanged(options: IngestOptions, source: string, hash: string, report: IngestReport): boolean {
  const existing = options.store.findDocument(options.collection, source);
  if (existing?.contentHash !== hash) return false;
  // Added before without analysis: --analyze now is a reason to redo it.
  if (options.analyze && !existing.analyzed) return false;
  report.unchanged.push(source);
  return true;
}

async function analyze(
  options: IngestOptions,
  title: string,
  chunks: readonly DocumentChunk[],
  report: IngestReport,
) {
  const result = await analyzeDocument({ llm: options.analyze!.llm, title, chunks, signal: options.signal });
  const used = report.analysis!;
  used.calls += result.calls;
  used.failures += result.failures.length;
  used.usage.promptTokens += result.usage.promptTokens;
  used.usage.completionTokens += result.usage.completionTokens;
  used.usage.totalTokens += result.usage.totalTokens;
  return { summary: result.summary, chunks: result.chunks };
}

/** From file sizes (URLs count as 20,000 characters): unchanged files are skipped later, so this is an upper bound. */
async function estimateFor(items: readonly SourceItem[]) {
  let chars = 0;
  for (const item of items) {
    chars += item.kind === 'file' ? ((await stat(item.path).catch(() => undefined))?.size ?? 0) : 20_000;
  }
  const chunks = Math.ceil(chars / defaultDocumentChunkChars) + items.length;
  return { ...estimateAnalysis({ chars, chunks, documents: items.length }), documents: items.length };
}

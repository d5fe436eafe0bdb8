import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { resolveProxySettings } from '../../../config/proxy-settings.js';
import { InputError } from '../../../core/errors/index.js';
import type { IngestProgress, IngestReport } from '../../../knowledge/ingest-documents.js';
import { createKnowledgeBase, type KnowledgeBase } from '../../../knowledge/knowledge-base.js';
import type { KnowledgeHit } from '../../../knowledge/search-knowledge.js';
import { exactVectorLimit } from '../../../knowledge/vector-index.js';
import { loadRetrievalProviders } from '../../../runtime/load-retrieval-providers.js';
import type { CliIo } from '../../io/cli-io.js';
import { clipLine, createTerminal, type Terminal } from '../../io/terminal-style.js';
import { progressBar } from '../../progress/progress-bar.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import type { KbCommandInput } from './kb-command.js';

/** `deepsearch kb <action>`: one knowledge base, opened for the command and closed after it. */
export async function runKbCommand(io: CliIo, input: KbCommandInput): Promise<void> {
  const config = loadCliConfig(io, input.settingFlags, input.flags.config);
  // loadCliConfig fills knowledge.file with the data directory's default.
  const file = input.flags.kb ? resolve(io.cwd, input.flags.kb) : config.knowledge.file!;
  // Only add creates a knowledge base: searching a misspelt --kb would create an empty one and
  // find nothing, with exit 0.
  if (input.action !== 'add' && input.flags.kb && !existsSync(file))
    throw new InputError(
      `no knowledge base at ${input.flags.kb}: deepsearch kb add <paths> --kb ${input.flags.kb} creates one`,
      { param: 'kb' },
    );
  const proxy = resolveProxySettings(config);
  const providers = await loadRetrievalProviders({ config, proxy });
  // Only add reads URLs and parses files; the readers' modules stay unloaded for search, list and the rest.
  const readers = input.action === 'add' ? await createReaders(config, proxy) : undefined;
  const kb = createKnowledgeBase({
    file,
    embedding: providers.embedding,
    reranker: providers.reranker,
    reader: readers?.reader,
    extractor: readers?.extraction.extractor,
    maxFileBytes: config.knowledge.maxFileBytes,
  });
  const out = createTerminal(io.stdout, io.env);
  try {
    if (input.action === 'add') await runAdd(io, kb, input, config);
    else if (input.action === 'list') runList(io, kb, input, out);
    else if (input.action === 'stats') {
      const { describeRetrievalProviders } = await import('../../../runtime/create-retrieval-providers.js');
      runStats(io, kb, input, describeRetrievalProviders(providers)[0]!);
    } else if (input.action === 'remove') runRemove(io, kb, input);
    else await runSearch(io, kb, input, out, config.debug);
  } finally {
    kb.close();
    readers?.extraction.release();
  }
}

/** The page readers and the extraction pool that parses what they and `add` read. */
async function createReaders(config: DeepSearchConfig, proxy: ReturnType<typeof resolveProxySettings>) {
  const [{ createPageReader }, { acquireExtractionPool }] = await Promise.all([
    import('../../../providers/reader/reader-registry.js'),
    import('../../../extraction/worker/shared-extraction-pool.js'),
  ]);
  const extraction = acquireExtractionPool(config.reader.extraction);
  const reader = createPageReader({ ...config.reader, proxy, extractor: extraction.extractor });
  return { reader, extraction };
}

async function runAdd(
  io: CliIo,
  kb: KnowledgeBase,
  input: KbCommandInput,
  config: DeepSearchConfig,
): Promise<void> {
  const errors = createTerminal(io.stderr, io.env);
  const progress =
    input.flags.quiet || input.flags.json || !io.stderr.isTTY ? undefined : createProgressBar(io);
  const report = await kb.add({
    inputs: input.args,
    cwd: io.cwd,
    collection: input.flags.collection ?? 'default',
    include: input.flags.include,
    exclude: input.flags.exclude,
    signal: io.signal,
    onProgress: progress,
    analyze: input.flags.analyze ? await analyzeSettings(config, errors) : undefined,
  });
  if (progress) io.stderr.write('\n');
  if (input.flags.json) io.stdout.write(`${JSON.stringify({ file: kb.file, ...report })}\n`);
  else io.stdout.write(renderReport(report, createTerminal(io.stdout, io.env)));
  const nothingStored =
    report.added.length + report.updated.length + report.unchanged.length + report.duplicates.length === 0;
  if (nothingStored && report.failed.length > 0) {
    throw new InputError(`nothing was added: ${report.failed[0]!.source}: ${report.failed[0]!.reason}`);
  }
}

/** One line redrawn in place: a bar, done/total, failures and documents per second. */
function createProgressBar(io: CliIo): (progress: IngestProgress) => void {
  return (progress) => {
    const rate = progress.elapsedMs > 0 ? (progress.done / (progress.elapsedMs / 1000)).toFixed(1) : '0';
    const failed = progress.failed > 0 ? ` · ${progress.failed} failed` : '';
    const name = progress.current ? ` ${clipLine(progress.current.split('/').at(-1) ?? '', 30)}` : '';
    io.stderr.write(
      `\r${progressBar(progress.done, progress.total)} ${progress.done}/${progress.total}${failed} · ${rate} docs/s${name}\u001b[K`,
    );
  };
}

async function analyzeSettings(config: DeepSearchConfig, errors: Terminal) {
  // The AI SDK loads only for --analyze.
  const { createLlmClient } = await import('../../../providers/llm/create-llm-client.js');
  const llm = createLlmClient({ config });
  const described = llm.describe('analyzer');
  return {
    llm,
    onEstimate: (estimate: { documents: number; calls: number; inputTokens: number }) =>
      errors.write(
        errors.style(
          'yellow',
          `analysis with ${described.provider} ${described.model}: up to ${estimate.documents} documents, ~${estimate.calls} LLM calls, ~${estimate.inputTokens} input tokens (unchanged documents are skipped)`,
        ),
      ),
  };
}

function renderReport(report: IngestReport, terminal: Terminal): string {
  const lines = [
    `added ${report.added.length}, updated ${report.updated.length}, unchanged ${report.unchanged.length}, ` +
      `duplicates ${report.duplicates.length}, failed ${report.failed.length} · ${report.chunks} chunks in ${(report.durationMs / 1000).toFixed(1)} s`,
  ];
  if (report.reembedded > 0)
    lines.push(`the embedding model changed: ${report.reembedded} chunks embedded again`);
  for (const duplicate of report.duplicates)
    lines.push(terminal.style('dim', `= ${duplicate.source} (same as ${duplicate.of})`));
  for (const { source, note } of report.notes) lines.push(terminal.style('yellow', `! ${source}: ${note}`));
  for (const failure of report.failed)
    lines.push(terminal.style('red', `✗ ${failure.source}: ${failure.reason}`));
  return `${lines.join('\n')}\n`;
}

function runList(io: CliIo, kb: KnowledgeBase, input: KbCommandInput, out: Terminal): void {
  const documents = kb.store().listDocuments(input.flags.collection);
  if (input.flags.json) {
    io.stdout.write(`${JSON.stringify({ file: kb.file, documents })}\n`);
    return;
  }
  if (documents.length === 0) io.stdout.write('no documents: add some with deepsearch kb add <paths...>\n');
  for (const document of documents) {
    const pages = document.pages ? `, ${document.pages} pages` : '';
    io.stdout.write(
      `${out.style('cyan', document.key)}  ${document.collection}  ${document.source}\n    ${clipLine(document.title, out.width - 4)} (${document.chunks} chunks${pages})\n`,
    );
  }
}

function runStats(io: CliIo, kb: KnowledgeBase, input: KbCommandInput, embeddingLine: string): void {
  const store = kb.store();
  const stats = {
    file: kb.file,
    ...store.stats(),
    vectorIndex: store.vectorBackend,
    vectorIndexNote: store.knowledge.vectorBackendNote,
    storedEmbedding: store.embeddingModel() ?? null,
  };
  if (input.flags.json) {
    io.stdout.write(`${JSON.stringify(stats)}\n`);
    return;
  }
  const lines = [
    `file: ${stats.file}`,
    `documents: ${stats.documents} · chunks: ${stats.chunks}`,
    `collections: ${stats.collections.map((entry) => `${entry.collection} (${entry.documents})`).join(', ') || 'none'}`,
    `vector index: every vector compared up to ${exactVectorLimit.toLocaleString('en')}, by ${stats.vectorIndex === 'sqlite-vec' ? 'sqlite-vec' : `a scan in JS (${stats.vectorIndexNote})`}; above, sign codes pick the candidates compared`,
    `stored vectors: ${stats.storedEmbedding ? `${stats.storedEmbedding.model}, ${stats.storedEmbedding.dimensions} dimensions` : 'none yet'}`,
    embeddingLine,
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
}

function runRemove(io: CliIo, kb: KnowledgeBase, input: KbCommandInput): void {
  const target = input.args[0]!;
  let removed = kb.store().removeDocuments(target);
  if (removed.length === 0 && !/^https?:/i.test(target))
    removed = kb.store().removeDocuments(resolve(io.cwd, target));
  if (removed.length === 0) {
    throw new InputError(`no document matches ${target}: see deepsearch kb list for ids and paths`, {
      param: 'id',
    });
  }
  for (const document of removed) io.stdout.write(`removed ${document.key} ${document.source}\n`);
}

async function runSearch(io: CliIo, kb: KnowledgeBase, input: KbCommandInput, out: Terminal, debug: boolean) {
  const query = input.args.join(' ').trim();
  if (!query)
    throw new InputError('missing query: run deepsearch kb search "your query"', { param: 'query' });
  const limit = input.flags.limit === undefined ? 10 : Number(input.flags.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new InputError(`--limit must be a whole number from 1 to 100 (got "${input.flags.limit}")`, {
      param: 'limit',
    });
  }
  const result = await kb.search({
    query,
    limit,
    collection: input.flags.collection,
    expand: input.flags.expand !== false,
    signal: io.signal,
  });
  const store = kb.store();
  if (input.flags.json) {
    io.stdout.write(
      `${JSON.stringify({ query, vectorIndex: store.vectorBackend, vectorSearch: result.vectorSearch, reranked: result.reranked, entities: result.entities, hits: result.hits })}\n`,
    );
    return;
  }
  if (debug) {
    io.stderr.write(
      `vector index: ${store.vectorBackend}${result.vectorSearch ? '' : ' (not used: no vectors of this embedding model)'} · reranked: ${result.reranked} · expansion entities: ${result.entities.join(', ') || 'none'}\n`,
    );
  }
  io.stdout.write(renderKnowledgeHits(result.hits, out, debug));
}

export function renderKnowledgeHits(hits: readonly KnowledgeHit[], out: Terminal, debug: boolean): string {
  if (hits.length === 0) return 'no results\n';
  const blocks = hits.map((hit, index) => {
    const where = [hit.heading, hit.page ? `p. ${hit.page}` : ''].filter(Boolean).join(' · ');
    const lines = [out.style('bold', `${index + 1}. ${clipLine(hit.title, out.width - 6)}`)];
    lines.push(`   ${out.style('cyan', hit.url)}  ${hit.source}${where ? `  (${clipLine(where, 60)})` : ''}`);
    lines.push(`   ${clipLine(hit.text, out.width * 2)}`);
    if (debug) lines.push(out.style('dim', `   why: ${explainHit(hit)}`));
    return lines.join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}

/** The score's parts in words. */
export function explainHit(hit: KnowledgeHit): string {
  const parts: string[] = [];
  const { explain } = hit;
  if (explain.fullText) parts.push(`full text #${explain.fullText.rank} (bm25 ${explain.fullText.bm25})`);
  if (explain.vector) parts.push(`vector #${explain.vector.rank} (cosine ${explain.vector.similarity})`);
  if (explain.summary) {
    parts.push(
      `document summary #${explain.summary.documentRank} (bm25 ${explain.summary.bm25}), its chunk #${explain.summary.chunkRank}`,
    );
  }
  if (explain.fused > 0) parts.push(`fused ${explain.fused}`);
  if (explain.rerank !== undefined) parts.push(`rerank ${explain.rerank}`);
  if (explain.expansion) {
    parts.push(
      `expansion: "${explain.expansion.entity}" (#${explain.expansion.rank}) named in chunk ${explain.expansion.fromChunk}`,
    );
  }
  return parts.join(' · ');
}

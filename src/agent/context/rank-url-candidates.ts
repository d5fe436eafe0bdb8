import { parseSince } from '../../config/time-scope.js';
import { needsFreshness } from '../../retrieval/needs-freshness.js';
import { type RankedUrl, type RankUrlsOptions, rankUrls } from '../../retrieval/rank-urls.js';
import type { RunContext } from '../run-context.js';
import type { UrlRecord } from '../state/url-index.js';
import { errorMessage, isFatal } from '../steps/step-errors.js';

/** Entries of the URL list shown to the agent. */
export const maxUrlListEntries = 30;
const reportedEntries = 10;

/**
 * The unread URLs ranked for this step's question (the signals of
 * https://jina.ai/news/snippet-selection-and-url-ranking-in-deepsearch-deepresearch/). With a rerank service, the best
 * candidates by the other signals are reranked, awaited here before the prompt is built; each
 * question-URL pair is sent once. URLs written in the question are not ranked: they go first.
 * The ranking, with each weight's reasons, is reported as a `url-ranking` event.
 */
export async function rankUrlCandidates(
  context: RunContext,
  question: string,
): Promise<Array<RankedUrl<UrlRecord>>> {
  const { state, config } = context;
  const candidates = state.urls.candidates(state.visited).filter((record) => !record.sources.has('question'));
  if (candidates.length === 0) return [];
  const query = question === state.question ? question : `${question}\n${state.question}`;
  const now = new Date(`${context.today}T00:00:00Z`);
  const base: RankUrlsOptions = {
    question: query,
    hosts: {
      boost: config.search.boostHostnames,
      bad: config.search.badHostnames,
      only: config.search.onlyHostnames,
    },
    hostPenalty: (host) => context.hostHealth.penalty(host),
    trust: (url) => context.hostHealth.trustOf(url).trust.score,
    perHostCap: config.retrieval.perHostCap,
    ...(needsFreshness(`${state.question} ${question}`, now) ? { freshnessNow: now } : {}),
    ...scopeOf(context),
  };
  let ranked = rankUrls(candidates, { ...base, limit: maxUrlListEntries });
  if (!context.reranker.builtin) {
    const pool = rankUrls(candidates, {
      ...base,
      perHostCap: Number.MAX_SAFE_INTEGER,
      limit: config.retrieval.rerankCandidates,
    });
    const relevance = await rerankPool(
      context,
      query,
      pool.map((entry) => entry.candidate),
    );
    if (relevance) {
      ranked = rankUrls(
        pool.map((entry) => entry.candidate),
        { ...base, relevance, limit: maxUrlListEntries },
      );
    }
  }
  context.emit({
    type: 'url-ranking',
    step: context.step,
    question,
    reranker: context.reranker.builtin ? 'built-in BM25' : `${context.reranker.id} ${context.reranker.model}`,
    candidates: candidates.length,
    urls: ranked
      .slice(0, reportedEntries)
      .map(({ candidate, weight, reasons }) => ({ url: candidate.url, weight, reasons })),
  });
  return ranked;
}

/** Reranker scores for the pool, from the cache or one awaited call; undefined if the service failed. */
async function rerankPool(
  context: RunContext,
  query: string,
  pool: UrlRecord[],
): Promise<number[] | undefined> {
  const cache = context.state.rerankScores.get(query) ?? new Map<string, number>();
  context.state.rerankScores.set(query, cache);
  const missing = pool.filter((record) => !cache.has(record.key));
  if (missing.length > 0) {
    try {
      const scores = await context.reranker.rerank(query, missing.map(describeUrl), {
        signal: context.signal,
      });
      missing.forEach((record, index) => {
        cache.set(record.key, scores[index] ?? 0);
      });
    } catch (error) {
      if (isFatal(error)) throw error;
      context.emit({
        type: 'warning',
        step: context.step,
        message: `reranking failed, URLs ranked lexically: ${errorMessage(error)}`,
      });
      return undefined;
    }
  }
  return pool.map((record) => cache.get(record.key) ?? 0);
}

/** What the reranker sees of a URL: title, search snippet and the anchor texts that pointed to it. */
function describeUrl(record: UrlRecord): string {
  const anchors = record.anchors.length ? `\n${record.anchors.join(' | ')}` : '';
  return `${record.title}\n${record.snippet}${anchors}`.trim() || record.url;
}

/** `--since` as the ranking takes it: pages dated before it rank lower. */
function scopeOf(context: RunContext): { since?: Date } {
  const since = context.config.search.since;
  const date = since === undefined ? undefined : parseSince(since, new Date());
  return date ? { since: date } : {};
}

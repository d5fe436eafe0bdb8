import { describeSearchNotice } from '../../providers/search/fallback-search.js';
import type { SearchHit } from '../../providers/spec/search-provider.js';
import { foldText } from '../../retrieval/match-text.js';
import type { RunContext } from '../run-context.js';
import { errorMessage, isFatal } from './step-errors.js';

/**
 * Runs the new queries concurrently. Hits become side knowledge and citable sources, their URLs
 * candidates to read. No new URL at all switches search off for the next step.
 */
export async function runSearchStep(
  context: RunContext,
  input: { question: string; queries: string[] },
): Promise<void> {
  const { state, budget } = context;
  const queries = freshQueries(input.queries, state.queriesDone, context.config.agent.maxQueriesPerStep);
  if (queries.length === 0) {
    state.disabled.add('search');
    state.diary.add({
      step: context.step,
      action: 'search',
      question: input.question,
      note: 'every proposed query had been searched already; try other words or another action',
    });
    return;
  }
  context.emit({ type: 'search-start', step: context.step, queries });
  const started = performance.now();
  const settled = await Promise.allSettled(
    queries.map((query) =>
      context.search.search(query, {
        count: context.config.search.resultsPerQuery,
        signal: context.signal,
        // A provider of the fallback chain passed over: the person following the run should see it.
        onNotice: (notice) =>
          context.emit({ type: 'warning', step: context.step, message: describeSearchNotice(query, notice) }),
      }),
    ),
  );
  budget.addTime('search', performance.now() - started);
  budget.countSearch(queries.length);
  const failures: Array<{ query: string; error: string }> = [];
  let hits = 0;
  let newUrls = 0;
  settled.forEach((outcome, index) => {
    const query = queries[index]!;
    if (outcome.status === 'rejected') {
      if (isFatal(outcome.reason)) throw outcome.reason;
      failures.push({ query, error: errorMessage(outcome.reason) });
      return;
    }
    state.queriesDone.add(queryKey(query));
    state.searches.push({ query, step: context.step, hits: outcome.value });
    hits += outcome.value.length;
    newUrls += recordHits(context, query, outcome.value);
  });
  context.emit({ type: 'search-end', step: context.step, queries, hits, newUrls, failures });
  if (newUrls === 0) state.disabled.add('search');
  const failed = failures.length
    ? ` Failed: ${failures.map((failure) => `"${failure.query}" (${failure.error})`).join('; ')}.`
    : '';
  state.diary.add({
    step: context.step,
    action: 'search',
    question: input.question,
    note: `searched ${queries.map((query) => `"${query}"`).join(', ')}: ${hits} results, ${newUrls} new URLs.${failed}`,
  });
}

function recordHits(context: RunContext, query: string, hits: SearchHit[]): number {
  let added = 0;
  for (const hit of hits) {
    const isNew = context.state.urls.add({
      url: hit.url,
      title: hit.title,
      snippet: hit.snippet,
      source: `search:${query}`,
      step: context.step,
      publishedAt: hit.publishedAt,
    });
    if (isNew) added++;
  }
  return added;
}

export function queryKey(query: string): string {
  return foldText(query).folded;
}

function freshQueries(proposed: readonly string[], done: ReadonlySet<string>, max: number): string[] {
  const seen = new Set<string>();
  const fresh: string[] = [];
  for (const raw of proposed) {
    const query = raw.replace(/\s+/g, ' ').trim();
    const key = queryKey(query);
    if (!key || done.has(key) || seen.has(key)) continue;
    seen.add(key);
    fresh.push(query);
    if (fresh.length === max) break;
  }
  return fresh;
}

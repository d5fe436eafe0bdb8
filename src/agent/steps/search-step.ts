import { describeSearchNotice } from '../../providers/search/fallback-search.js';
import type { SearchHit } from '../../providers/spec/search-provider.js';
import { createHostFilter } from '../../retrieval/host-lists.js';
import { hostOf, isNetworkUrl } from '../../retrieval/normalize-url.js';
import type { StepOutcome } from '../actions/action-definition.js';
import type { RunContext } from '../run-context.js';
import { untriedAngles } from './no-progress-hints.js';
import { type PlannedQuery, planQueries, type SearchPlan } from './plan-queries.js';
import { searchTimeScope } from './search-time-scope.js';
import { errorMessage, failureForModel, isFatal, stopRunWith } from './step-errors.js';

/**
 * Plans the queries (dedup, rewrite, dedup) and runs them concurrently. Hits become side knowledge
 * and citable sources, their URLs candidates to read. No new URL at all switches search off for
 * the next step.
 */
export async function runSearchStep(
  context: RunContext,
  input: { question: string; queries: string[]; offeredUrls: readonly string[] },
): Promise<StepOutcome> {
  const { state, budget } = context;
  const plan = await planQueries(context, input);
  const planned = plan.queries;
  const queries = planned.map((item) => item.query);
  if (queries.length === 0) return nothingNewSearched(context, plan, input.offeredUrls);
  context.emit({ type: 'search-start', step: context.step, queries });
  const waited = budget.wait('search');
  const settled = await Promise.allSettled(planned.map((item) => searchAllowedHosts(context, item)));
  waited();
  budget.countSearch(queries.length);
  const failures: Array<{ query: string; error: string }> = [];
  let hits = 0;
  let newUrls = 0;
  let firstError: unknown;
  settled.forEach((outcome, index) => {
    const query = queries[index]!;
    if (outcome.status === 'rejected') {
      if (isFatal(outcome.reason)) throw outcome.reason;
      firstError ??= outcome.reason;
      failures.push({ query, error: errorMessage(outcome.reason) });
      return;
    }
    state.searches.push({ query, step: context.step, hits: outcome.value });
    hits += outcome.value.length;
    newUrls += recordHits(context, query, outcome.value);
  });
  context.emit({ type: 'search-end', step: context.step, queries, hits, newUrls, failures });
  // Search is down and nothing was ever found or read: answering "not found" would hide the cause.
  if (failures.length === queries.length && state.searches.length === 0 && state.pages.all().length === 0) {
    throw stopRunWith(firstError);
  }
  const failed = failures.length
    ? ` Failed: ${failures.map((failure) => `"${failure.query}" (${failureForModel(failure.error)})`).join('; ')}.`
    : '';
  return {
    note: `searched ${queries.map((query) => `"${query}"`).join(', ')}: ${hits} result${hits === 1 ? '' : 's'}, ${newUrls} new URL${newUrls === 1 ? '' : 's'}.${failed}`,
    disableNext: newUrls === 0,
  };
}

/** Every query repeated one searched before: said in plain words, with what has not been tried. */
function nothingNewSearched(context: RunContext, plan: SearchPlan, offered: readonly string[]): StepOutcome {
  const searchedAt = new Map(context.state.searches.map((search) => [search.query, search.step]));
  const repeats = [...new Set(plan.duplicates.map((duplicate) => duplicate.of))].map((query) => {
    const step = searchedAt.get(query);
    return `"${query}"${step === undefined ? '' : ` (step ${step})`}`;
  });
  const count = plan.duplicates.length;
  return {
    note: `nothing new was searched: ${count === 1 ? 'the query repeats' : `all ${count} queries repeat`} ${repeats.join(', ')}. ${untriedAngles(context, offered)}`,
    disableNext: true,
    noProgress: `${count === 1 ? 'the query was' : `all ${count} queries were`} searched before`,
  };
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

/** Providers a run was told have no time filter, by the run's state. */
const toldNoTimeFilter = new WeakMap<object, Set<string>>();

/**
 * One search within the host lists: a single only-host becomes the engine's site filter; hits on
 * bad hosts, or outside the only-hosts, are dropped.
 */
async function searchAllowedHosts(context: RunContext, item: PlannedQuery): Promise<SearchHit[]> {
  const { search } = context.config;
  const lists = { bad: search.badHostnames, only: search.onlyHostnames };
  const hits = await context.search.search(item.query, {
    count: search.resultsPerQuery,
    signal: context.signal,
    // A provider of the fallback chain passed over: the person following the run should see it.
    onNotice: (notice) => {
      // A provider without a time filter is said once per run, not once per query.
      if (notice.kind === 'no-time-filter') {
        const told = toldNoTimeFilter.get(context.state) ?? new Set<string>();
        toldNoTimeFilter.set(context.state, told);
        if (told.has(notice.providerId)) return;
        told.add(notice.providerId);
      }
      context.emit({
        type: 'warning',
        step: context.step,
        message: describeSearchNotice(item.query, notice),
      });
    },
    ...searchTimeScope({ since: search.since, timeRange: item.timeRange }),
    ...(item.language ? { language: item.language } : {}),
    ...(lists.only.length === 1 ? { site: lists.only[0] } : {}),
  });
  const filter = createHostFilter(lists);
  // Host lists are about web hosts; a local search provider's file: or kb: hits have none.
  return hits.filter((hit) => !isNetworkUrl(hit.url) || filter.allowed(hostOf(hit.url)));
}

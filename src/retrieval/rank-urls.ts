import { createHostFilter, type HostLists } from './host-lists.js';
import { orderByWeight } from './order-by-weight.js';
import { parseDate } from './parse-date.js';
import { pathStructureScores } from './path-structure-scores.js';
import type { TermIndex } from './term-index.js';
import { featuresOf, type UrlFeatures, urlVocabulary } from './url-features.js';

export interface UrlCandidate {
  url: string;
  host: string;
  title: string;
  snippet: string;
  anchors: readonly string[];
  /** How many times the URL was seen (search results and links on read pages). */
  hits: number;
  /** ISO 8601, when a search engine or the page said. */
  publishedAt?: string;
}

/** Each signal in [0, 1] (penalty: the share taken off), so a weight can be explained. */
export interface UrlReasons {
  frequency: number;
  host: number;
  path: number;
  relevance: number;
  freshness: number;
  boost: number;
  /** The host's provisional trust score (trust profiles); 0 when no trust was given. */
  trust: number;
  penalty: number;
}

export interface RankedUrl<T extends UrlCandidate = UrlCandidate> {
  candidate: T;
  weight: number;
  reasons: UrlReasons;
}

export interface RankUrlsOptions {
  question: string;
  /** Reranker scores in [0, 1], aligned with the candidates; NaN or missing entries use BM25. */
  relevance?: ArrayLike<number>;
  hosts?: HostLists;
  /** 0 (healthy) to 1 (unusable) per host: failures and paywalls seen before. */
  hostPenalty?: (host: string) => number;
  /** Provisional trust in [0, 1] of a URL's host (https, TLD, name, failures, citations). */
  trust?: (url: string) => number;
  /** Set when the question needs recent sources: newer pages rank higher. */
  freshnessNow?: Date;
  /** `--since`: a page dated before it loses half its weight (its date unknown, nothing). */
  since?: Date;
  /** At most this many URLs per host in the result, for diversity. Default 2. */
  perHostCap?: number;
  limit?: number;
}

const weights = {
  frequency: 0.15,
  host: 0.1,
  path: 0.1,
  relevance: 0.5,
  freshness: 0.15,
  boost: 0.2,
  // Small beside relevance: a trusted host breaks ties between pages of similar merit.
  trust: 0.1,
};

/**
 * Seed 001's URL ranking: frequency across results and pages, host frequency, shared path
 * prefixes with depth decay, relevance of title, snippet and anchor text to the question
 * (reranker scores when given, else BM25), freshness when asked for, boost/bad/only host lists,
 * the host's trust score, a penalty for hosts that failed before, and a cap per host. Linear in the candidates.
 */
export function rankUrls<T extends UrlCandidate>(
  candidates: readonly T[],
  options: RankUrlsOptions,
): Array<RankedUrl<T>> {
  const hosts = hostTable(options);
  const kept: number[] = [];
  const pool: T[] = [];
  const poolHosts: HostInfo[] = [];
  candidates.forEach((candidate, index) => {
    const host = hosts(candidate.host);
    if (!host.allowed) return;
    host.count++;
    kept.push(index);
    pool.push(candidate);
    poolHosts.push(host);
  });
  if (pool.length === 0) return [];
  const signals = computeSignals(pool, poolHosts, kept, options);
  const thousandths = weightsInThousandths(signals, pool.length);
  // Reasons objects only for the URLs returned: ten thousand candidates stay cheap.
  const reasonsOf = (index: number): UrlReasons => ({
    frequency: signals.frequency[index]!,
    host: signals.host[index]!,
    path: signals.path[index]!,
    relevance: signals.relevance[index]!,
    freshness: signals.freshness[index]!,
    boost: signals.boost[index]!,
    trust: signals.trust[index]!,
    penalty: signals.penalty[index]!,
  });
  const cap = options.perHostCap ?? 2;
  const limit = options.limit ?? pool.length;
  const ranked: Array<RankedUrl<T>> = [];
  const order = orderByWeight(thousandths);
  for (let rank = 0; rank < order.length && ranked.length < limit; rank++) {
    const index = order[rank]!;
    const host = poolHosts[index]!;
    if (host.uncapped || host.listed++ < cap)
      ranked.push({ candidate: pool[index]!, weight: thousandths[index]! / 1000, reasons: reasonsOf(index) });
  }
  return ranked;
}

type Signals = Record<keyof UrlReasons, Float64Array>;

/** Each candidate's weight in thousandths, as it is rounded (a loop of its own: see orderByWeight). */
function weightsInThousandths(signals: Signals, count: number): Float64Array {
  const thousandths = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    const sum =
      weights.frequency * signals.frequency[index]! +
      weights.host * signals.host[index]! +
      weights.path * signals.path[index]! +
      weights.relevance * signals.relevance[index]! +
      weights.freshness * signals.freshness[index]! +
      weights.boost * signals.boost[index]! +
      weights.trust * signals.trust[index]!;
    thousandths[index] = Math.round(sum * (1 - signals.penalty[index]!) * 1000);
  }
  return thousandths;
}

interface HostInfo {
  allowed: boolean;
  boosted: boolean;
  /** Candidates from the host in the pool. */
  count: number;
  penalty: number;
  /** Candidates from the host met so far in weight order, for the cap. */
  listed: number;
  /** Local sources (file:, kb:) have no host: no list, penalty or per-host cap applies to them. */
  uncapped: boolean;
}

/** Each host's verdicts, worked out once per ranking: ten thousand candidates come from a few hundred hosts. */
function hostTable(options: RankUrlsOptions): (host: string) => HostInfo {
  const filter = createHostFilter(options.hosts ?? {});
  const known = new Map<string, HostInfo>();
  return (host) => {
    let info = known.get(host);
    if (!info && host === '') {
      info = { allowed: true, boosted: false, count: 0, penalty: 0, listed: 0, uncapped: true };
      known.set(host, info);
    }
    if (!info) {
      const allowed = filter.allowed(host);
      info = {
        allowed,
        boosted: allowed && filter.boosted(host),
        count: 0,
        penalty: allowed ? Math.min(1, Math.max(0, options.hostPenalty?.(host) ?? 0)) : 0,
        listed: 0,
        uncapped: false,
      };
      known.set(host, info);
    }
    return info;
  };
}

function computeSignals(
  pool: readonly UrlCandidate[],
  poolHosts: readonly HostInfo[],
  kept: number[],
  options: RankUrlsOptions,
): Signals {
  let maxHits = 1;
  let maxHostCount = 1;
  for (let index = 0; index < pool.length; index++) {
    maxHits = Math.max(maxHits, pool[index]!.hits);
    if (!poolHosts[index]!.uncapped) maxHostCount = Math.max(maxHostCount, poolHosts[index]!.count);
  }
  const nowMs = options.freshnessNow?.getTime();
  const sinceMs = options.since?.getTime();
  const vocabulary = urlVocabulary();
  const features = pool.map((candidate) => featuresOf(candidate, vocabulary));
  const signals: Signals = {
    frequency: new Float64Array(pool.length),
    host: new Float64Array(pool.length),
    path: pathStructureScores(features, vocabulary.prefixes.size),
    relevance: relevanceScores(features, vocabulary.terms, kept, options),
    freshness: new Float64Array(pool.length),
    boost: new Float64Array(pool.length),
    trust: new Float64Array(pool.length),
    penalty: new Float64Array(pool.length),
  };
  // Scheme and host decide a URL's trust: worked out once per pair.
  const trustOf = new Map<string, number>();
  for (let index = 0; index < pool.length; index++) {
    const candidate = pool[index]!;
    const host = poolHosts[index]!;
    // Relative to the most seen URL and the most common host; 0 for singletons.
    signals.frequency[index] = maxHits > 1 ? (candidate.hits - 1) / (maxHits - 1) : 0;
    signals.host[index] = maxHostCount > 1 && !host.uncapped ? (host.count - 1) / (maxHostCount - 1) : 0;
    signals.freshness[index] = nowMs === undefined ? 0 : freshness(candidate.publishedAt, nowMs);
    signals.boost[index] = host.boosted ? 1 : 0;
    signals.penalty[index] =
      sinceMs !== undefined && isDatedBefore(candidate.publishedAt, sinceMs)
        ? 1 - (1 - host.penalty) * (1 - beforeSincePenalty)
        : host.penalty;
    if (options.trust && !host.uncapped) {
      const key = `${candidate.url.slice(0, 5)}${candidate.host}`;
      let trust = trustOf.get(key);
      if (trust === undefined) {
        trust = Math.min(1, Math.max(0, options.trust(candidate.url)));
        trustOf.set(key, trust);
      }
      signals.trust[index] = trust;
    }
  }
  return signals;
}

/** BM25 of the candidates' title, snippet and anchor text, tokenised once per URL record. */
function relevanceScores(
  features: readonly UrlFeatures[],
  terms: TermIndex,
  kept: number[],
  options: RankUrlsOptions,
): Float64Array {
  const given = options.relevance;
  const scores = new Float64Array(features.length);
  const missing = given ? kept.some((index) => !Number.isFinite(given[index])) : true;
  if (missing) {
    scores.set(
      terms.score(
        options.question,
        features.map((feature) => feature.text),
      ),
    );
  }
  if (given) {
    kept.forEach((original, index) => {
      const score = given[original];
      if (score !== undefined && Number.isFinite(score)) scores[index] = Math.min(1, Math.max(0, score));
    });
  }
  return scores;
}

/** The share of its weight a page dated before `--since` loses. */
const beforeSincePenalty = 0.5;

/** Whether a page's known date is before `sinceMs` (an unknown or unreadable date is not). */
export function isDatedBefore(publishedAt: string | undefined, sinceMs: number): boolean {
  if (!publishedAt) return false;
  const time = parseDate(publishedAt);
  return !Number.isNaN(time) && time < sinceMs;
}

/** 1 for today, halving every 180 days; 0 when the date is unknown. */
function freshness(publishedAt: string | undefined, nowMs: number): number {
  if (!publishedAt) return 0;
  const time = parseDate(publishedAt);
  if (Number.isNaN(time)) return 0;
  const ageDays = Math.max(0, (nowMs - time) / 86_400_000);
  return 0.5 ** (ageDays / 180);
}

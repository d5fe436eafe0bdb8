import { createHostFilter, type HostLists } from './host-lists.js';
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
  /** Set when the question needs recent sources: newer pages rank higher. */
  freshnessNow?: Date;
  /** At most this many URLs per host in the result, for diversity. Default 2. */
  perHostCap?: number;
  limit?: number;
}

const weights = { frequency: 0.15, host: 0.1, path: 0.1, relevance: 0.5, freshness: 0.15, boost: 0.2 };
const pathDecay = 0.7;

/**
 * Seed 001's URL ranking: frequency across results and pages, host frequency, shared path
 * prefixes with depth decay, relevance of title, snippet and anchor text to the question
 * (reranker scores when given, else BM25), freshness when asked for, boost/bad/only host lists,
 * a penalty for hosts that failed before, and a cap per host. Linear in the candidates.
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
  // Weights in thousandths, as they are rounded.
  const thousandths = new Float64Array(pool.length);
  for (let index = 0; index < pool.length; index++) {
    const sum =
      weights.frequency * signals.frequency[index]! +
      weights.host * signals.host[index]! +
      weights.path * signals.path[index]! +
      weights.relevance * signals.relevance[index]! +
      weights.freshness * signals.freshness[index]! +
      weights.boost * signals.boost[index]!;
    thousandths[index] = Math.round(sum * (1 - signals.penalty[index]!) * 1000);
  }
  // Reasons objects only for the URLs returned: ten thousand candidates stay cheap.
  const reasonsOf = (index: number): UrlReasons => ({
    frequency: signals.frequency[index]!,
    host: signals.host[index]!,
    path: signals.path[index]!,
    relevance: signals.relevance[index]!,
    freshness: signals.freshness[index]!,
    boost: signals.boost[index]!,
    penalty: signals.penalty[index]!,
  });
  const cap = options.perHostCap ?? 2;
  const limit = options.limit ?? pool.length;
  const perHost = new Map<string, number>();
  const ranked: Array<RankedUrl<T>> = [];
  for (const index of orderByWeight(thousandths)) {
    if (ranked.length >= limit) break;
    const candidate = pool[index]!;
    const count = perHost.get(candidate.host) ?? 0;
    perHost.set(candidate.host, count + 1);
    if (count < cap)
      ranked.push({ candidate, weight: thousandths[index]! / 1000, reasons: reasonsOf(index) });
  }
  return ranked;
}

type Signals = Record<keyof UrlReasons, Float64Array>;

interface HostInfo {
  allowed: boolean;
  boosted: boolean;
  /** Candidates from the host in the pool. */
  count: number;
  penalty: number;
}

/** Each host's verdicts, worked out once per ranking: ten thousand candidates come from a few hundred hosts. */
function hostTable(options: RankUrlsOptions): (host: string) => HostInfo {
  const filter = createHostFilter(options.hosts ?? {});
  const known = new Map<string, HostInfo>();
  return (host) => {
    let info = known.get(host);
    if (!info) {
      const allowed = filter.allowed(host);
      info = {
        allowed,
        boosted: allowed && filter.boosted(host),
        count: 0,
        penalty: allowed ? Math.min(1, Math.max(0, options.hostPenalty?.(host) ?? 0)) : 0,
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
    maxHostCount = Math.max(maxHostCount, poolHosts[index]!.count);
  }
  const nowMs = options.freshnessNow?.getTime();
  const signals = {
    frequency: new Float64Array(pool.length),
    host: new Float64Array(pool.length),
    freshness: new Float64Array(pool.length),
    boost: new Float64Array(pool.length),
    penalty: new Float64Array(pool.length),
  };
  for (let index = 0; index < pool.length; index++) {
    const candidate = pool[index]!;
    const host = poolHosts[index]!;
    // Relative to the most seen URL and the most common host; 0 for singletons.
    signals.frequency[index] = maxHits > 1 ? (candidate.hits - 1) / (maxHits - 1) : 0;
    signals.host[index] = maxHostCount > 1 ? (host.count - 1) / (maxHostCount - 1) : 0;
    signals.freshness[index] = nowMs === undefined ? 0 : freshness(candidate.publishedAt, nowMs);
    signals.boost[index] = host.boosted ? 1 : 0;
    signals.penalty[index] = host.penalty;
  }
  const vocabulary = urlVocabulary();
  const features = pool.map((candidate) => featuresOf(candidate, vocabulary));
  return {
    ...signals,
    path: pathStructureScores(features, vocabulary.prefixes.size),
    relevance: relevanceScores(features, vocabulary.terms, kept, options),
  };
}

// Pool positions fit below this, next to a weight in one exact double.
const positionRange = 2 ** 24;

/**
 * Pool positions by weight, highest first, ties in pool order. Each weight and position are
 * packed into one number and sorted without a comparator, several times faster than calling one
 * for ten thousand weights.
 */
function orderByWeight(thousandths: Float64Array): Uint32Array {
  const order = new Uint32Array(thousandths.length);
  const packable =
    thousandths.length < positionRange && thousandths.every((weight) => Math.abs(weight) < 2 ** 28);
  if (!packable) {
    for (let index = 0; index < order.length; index++) order[index] = index;
    return order.sort((a, b) => thousandths[b]! - thousandths[a]! || a - b);
  }
  const keys = new Float64Array(thousandths.length);
  for (let index = 0; index < keys.length; index++)
    keys[index] = thousandths[index]! * positionRange + (positionRange - 1 - index);
  keys.sort();
  for (let rank = 0; rank < order.length; rank++) {
    const key = keys[keys.length - 1 - rank]!;
    order[rank] = positionRange - 1 - (key - Math.floor(key / positionRange) * positionRange);
  }
  return order;
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

/**
 * URLs in a shared path hierarchy (many siblings under /docs/api/) score higher; each level
 * counts less than the one above it, and deep pages lose a little for their depth. Prefixes
 * (host, host/a, host/a/b... the page itself excluded) are counted by their ids.
 */
function pathStructureScores(features: readonly UrlFeatures[], prefixCount: number): Float64Array {
  const counts = new Int32Array(prefixCount);
  for (const { prefixIds } of features)
    for (let level = 0; level < prefixIds.length; level++) counts[prefixIds[level]!]!++;
  const scores = new Float64Array(features.length);
  let max = 0;
  for (let index = 0; index < features.length; index++) {
    const prefixIds = features[index]!.prefixIds;
    let score = 0;
    let decay = 1;
    for (let level = 0; level < prefixIds.length; level++) {
      score += Math.log2(counts[prefixIds[level]!]!) * decay;
      decay *= pathDecay;
    }
    scores[index] = score / (1 + 0.1 * prefixIds.length);
    if (scores[index]! > max) max = scores[index]!;
  }
  if (max > 0) for (let index = 0; index < scores.length; index++) scores[index]! /= max;
  return scores;
}

/** 1 for today, halving every 180 days; 0 when the date is unknown. */
function freshness(publishedAt: string | undefined, nowMs: number): number {
  if (!publishedAt) return 0;
  const time = parseDate(publishedAt);
  if (Number.isNaN(time)) return 0;
  const ageDays = Math.max(0, (nowMs - time) / 86_400_000);
  return 0.5 ** (ageDays / 180);
}

/** ISO dates (what the providers give) read by char code; the general parser is slow on thousands. */
function parseDate(text: string): number {
  if (text.length < 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return Date.parse(text);
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  // Date.UTC() reads years 0-99 as 1900-1999; such dates, and digits that are not there, take the slow path.
  if (year >= 100 && month >= 1 && month <= 12 && day >= 0)
    return daysSinceEpoch(year, month, day) * 86_400_000;
  const time = Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
  return Number.isNaN(time) ? Date.parse(text) : time;
}

/** The number the `count` ASCII digits at `from` spell, or -1. */
function digitsAt(text: string, from: number, count: number): number {
  let value = 0;
  for (let index = from; index < from + count; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date, as Date.UTC() counts them (a day past the
 * month's end runs into the next month); H. Hinnant's days_from_civil.
 */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const shiftedYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(shiftedYear / 400);
  const yearOfEra = shiftedYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

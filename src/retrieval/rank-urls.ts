import { normaliseScores, scoreBm25 } from './bm25.js';

export interface UrlCandidate {
  url: string;
  host: string;
  title: string;
  snippet: string;
  anchors: readonly string[];
  /** How many times the URL was seen (search results and links on read pages). */
  hits: number;
}

export interface RankedUrl<T extends UrlCandidate = UrlCandidate> {
  candidate: T;
  weight: number;
  reasons: { frequency: number; host: number; path: number; relevance: number };
}

export interface RankUrlsOptions {
  limit?: number;
  /** At most this many URLs per host in the result, for diversity. */
  perHostCap?: number;
}

const weights = { frequency: 0.2, host: 0.1, path: 0.1, relevance: 0.6 };

/**
 * Seed 001's URL ranking, lexical edition: frequency across results, host frequency, shallow
 * paths, and relevance of title, snippet and anchor text to the question, capped per host.
 */
export function rankUrls<T extends UrlCandidate>(
  candidates: readonly T[],
  question: string,
  options: RankUrlsOptions = {},
): Array<RankedUrl<T>> {
  if (candidates.length === 0) return [];
  const relevance = normaliseScores(
    scoreBm25(
      question,
      candidates.map((candidate) => `${candidate.title} ${candidate.snippet} ${candidate.anchors.join(' ')}`),
    ),
  );
  const hostCounts = new Map<string, number>();
  for (const candidate of candidates)
    hostCounts.set(candidate.host, (hostCounts.get(candidate.host) ?? 0) + 1);
  const maxHits = Math.max(...candidates.map((candidate) => candidate.hits));
  const maxHost = Math.max(...hostCounts.values());
  const ranked = candidates.map((candidate, index) => {
    const reasons = {
      frequency: maxHits > 1 ? (candidate.hits - 1) / (maxHits - 1) : 0,
      host: maxHost > 1 ? (hostCounts.get(candidate.host)! - 1) / (maxHost - 1) : 0,
      path: 1 / (1 + pathDepth(candidate.url)),
      relevance: relevance[index]!,
    };
    const weight =
      weights.frequency * reasons.frequency +
      weights.host * reasons.host +
      weights.path * reasons.path +
      weights.relevance * reasons.relevance;
    return { candidate, weight: Math.round(weight * 1000) / 1000, reasons };
  });
  ranked.sort((a, b) => b.weight - a.weight);
  return capPerHost(ranked, options.perHostCap ?? 3).slice(0, options.limit ?? ranked.length);
}

function capPerHost<T extends UrlCandidate>(ranked: Array<RankedUrl<T>>, cap: number): Array<RankedUrl<T>> {
  const seen = new Map<string, number>();
  return ranked.filter(({ candidate }) => {
    const count = seen.get(candidate.host) ?? 0;
    seen.set(candidate.host, count + 1);
    return count < cap;
  });
}

function pathDepth(url: string): number {
  try {
    return new URL(url).pathname.split('/').filter(Boolean).length;
  } catch {
    return 5;
  }
}

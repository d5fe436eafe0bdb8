/** One normalised search hit, whatever the engine. */
export interface SearchHit {
  url: string;
  title: string;
  snippet: string;
  /** ISO 8601, when the engine knows it. */
  publishedAt?: string;
}

export const timeRanges = ['hour', 'day', 'week', 'month', 'year'] as const;
export type TimeRange = (typeof timeRanges)[number];

export interface SearchOptions {
  /** Hits wanted; providers may return fewer. */
  count?: number;
  timeRange?: TimeRange;
  /** BCP 47 language tag, e.g. "en", "fr-FR". */
  language?: string;
  /** Two-letter country code. */
  region?: string;
  /** Restrict to one host, e.g. "example.com". */
  site?: string;
  signal?: AbortSignal;
}

export interface SearchProvider {
  readonly id: string;
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
}

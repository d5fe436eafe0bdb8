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
  /** Told when a provider of a fallback chain failed or found nothing and the next one is tried. */
  onNotice?: (notice: SearchNotice) => void;
}

/** Something the caller should know about a search that still went on (the agent makes it a warning). */
export type SearchNotice = FallbackNotice | DroppedHitsNotice;

/** A provider of a fallback chain failed or found nothing, and the next one is tried. */
export interface FallbackNotice {
  kind: 'fallback';
  providerId: string;
  /** The provider tried next; undefined when it was the last one. */
  nextProviderId: string | undefined;
  /** Why it was passed over: what it failed with, or that it found nothing. */
  reason: string;
}

/** Hits a provider returned that were dropped because they point at private or loopback addresses. */
export interface DroppedHitsNotice {
  kind: 'private-hits-dropped';
  providerId: string;
  urls: string[];
}

export interface SearchProvider {
  /** The version of this interface the provider implements (see check-provider.ts). */
  readonly specificationVersion: 'v1';
  readonly id: string;
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
}

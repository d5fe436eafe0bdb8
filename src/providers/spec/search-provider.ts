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

const rangeMs: Readonly<Record<TimeRange, number>> = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 31 * 86_400_000,
  year: 366 * 86_400_000,
};

/** The smallest range reaching back to `since` (a day at least); undefined when it is older than a year. */
export function coveringTimeRange(since: Date, now: Date): TimeRange | undefined {
  const back = now.getTime() - since.getTime();
  return (['day', 'week', 'month', 'year'] as const).find((range) => back <= rangeMs[range]);
}

/** Whether `a` reaches back less far than `b`. */
export function isNarrowerRange(a: TimeRange, b: TimeRange): boolean {
  return rangeMs[a] < rangeMs[b];
}

/** YYYY-MM-DD in UTC, as date filters take it. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export interface SearchOptions {
  /** Hits wanted; providers may return fewer. */
  count?: number;
  timeRange?: TimeRange;
  /**
   * Only pages from this instant on (`--since`). Providers that take a start date use it; the
   * others use `timeRange`, which the caller sets to the smallest range covering it.
   */
  since?: Date;
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
export type SearchNotice = FallbackNotice | DroppedHitsNotice | NoTimeFilterNotice;

/** `since` was asked for and the provider has no time filter: its hits are of any date. */
export interface NoTimeFilterNotice {
  kind: 'no-time-filter';
  providerId: string;
}

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

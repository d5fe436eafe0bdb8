import { toIsoDate } from '../http/to-iso-date.js';
import type { SearchHit } from '../spec/search-provider.js';

/** A result as an engine gives it, before clean-up: any field may be missing or null. */
export interface RawSearchHit {
  url?: string | null;
  title?: string | null;
  snippet?: string | null;
  /** Any date string the engine sends; kept only when it can be read. */
  date?: string | null;
}

/**
 * The one normalised hit shape: http(s) URLs only, each once, whitespace collapsed, dates as
 * ISO 8601 UTC when readable. Engines differ in what they leave out, not in what we return.
 */
export function toSearchHits(raw: readonly RawSearchHit[]): SearchHit[] {
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  for (const result of raw) {
    const url = result.url?.trim();
    if (!url || !isWebUrl(url) || seen.has(url)) continue;
    seen.add(url);
    const publishedAt = toIsoDate(result.date);
    hits.push({
      url,
      title: collapse(result.title),
      snippet: collapse(result.snippet),
      ...(publishedAt ? { publishedAt } : {}),
    });
  }
  return hits;
}

function isWebUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const protocol = new URL(url).protocol;
  return protocol === 'http:' || protocol === 'https:';
}

function collapse(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

import { hostOf } from '../retrieval/normalize-url.js';
import type { EvidenceClaim, RunEvidence } from './run-evidence.js';

/** A CSL-JSON date: year, month, day as far as known. */
export interface CslDate {
  'date-parts': [number[]];
}

/** The CSL-JSON fields a cited web page gets (https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html). */
export interface CslItem {
  id: string;
  type: 'webpage';
  title: string;
  URL: string;
  'container-title'?: string;
  publisher?: string;
  author?: Array<{ literal: string }>;
  issued?: CslDate;
  accessed?: CslDate;
  note?: string;
}

/**
 * One CSL-JSON item per source of the run: title, URL, the site (its name when the page gives one,
 * else its host) as container and publisher, the author and date when the page's metadata has
 * them, when it was read, and its quotes as a note.
 */
export function citationItems(evidence: RunEvidence): CslItem[] {
  return evidence.sources.map((source) => {
    const quotes = evidence.claims.filter((claim) => source.footnotes.includes(claim.footnote));
    const issued = cslDate(source.published_at);
    const accessed = cslDate(source.accessed_at);
    const site = source.site_name ?? hostOf(source.url);
    return {
      id: `source-${source.n}`,
      type: 'webpage',
      title: source.title,
      URL: source.url,
      ...(site ? { 'container-title': site } : {}),
      ...(source.site_name ? { publisher: source.site_name } : {}),
      ...(source.author ? { author: [{ literal: source.author }] } : {}),
      ...(issued ? { issued } : {}),
      ...(accessed ? { accessed } : {}),
      ...(quotes.length ? { note: quoteNote(quotes) } : {}),
    };
  });
}

/** On one line: a line break inside a field ends it in RIS, whose every line is a tag. */
function quoteNote(claims: readonly EvidenceClaim[]): string {
  const quotes = claims.map((claim) => `[${claim.footnote}] "${claim.quote.replace(/\s+/g, ' ').trim()}"`);
  return `Quoted: ${[...new Set(quotes)].join('; ')}`;
}

/** An ISO 8601 date (or date-time) as CSL date parts; undefined when it is not one. */
export function cslDate(value: string | null | undefined): CslDate | undefined {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value ?? '');
  if (!match) return undefined;
  const parts = [match[1], match[2], match[3]].filter((part) => part !== undefined).map(Number);
  return { 'date-parts': [parts] };
}

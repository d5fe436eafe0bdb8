import { h } from './dom.js';
import { hostOf } from './footnotes.js';

/** A page the run chose but could not read, as the result's `skipped` lists it. */
export interface SkippedEntry {
  url: string;
  reason: string;
  detail: string;
}

const reasonLabels: Record<string, string> = {
  blocked: 'blocked by a bot check',
  login: 'behind a login',
  paywall: 'behind a paywall',
  robots: 'disallowed by robots.txt',
  timeout: 'timed out',
  'too-large': 'too large',
  'unsupported-type': 'of a type no reader takes',
  empty: 'empty',
  'http-error': 'answered with an HTTP error',
  unreachable: 'unreachable',
  unreadable: 'unreadable',
};

/** The result's `skipped`, kept only where it has the expected shape (older runs have none). */
export function toSkippedEntries(value: unknown): SkippedEntry[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const entry = item as Record<string, unknown> | null;
    if (!entry || typeof entry.url !== 'string' || typeof entry.reason !== 'string') return [];
    return [
      { url: entry.url, reason: entry.reason, detail: typeof entry.detail === 'string' ? entry.detail : '' },
    ];
  });
}

export function skipReasonLabel(reason: string): string {
  return reasonLabels[reason] ?? reason;
}

/** One list item per page: its host and URL as text (never a link: it may be a challenge page), and why. */
export function skippedItem(entry: SkippedEntry): HTMLElement {
  return h(
    'li',
    { class: 'skipped-page', title: entry.detail },
    h('span', { class: 'skipped-host' }, hostOf(entry.url)),
    ` ${skipReasonLabel(entry.reason)}`,
    h('span', { class: 'skipped-url muted small' }, entry.url),
  );
}

import { isDeepSearchError, isProviderError } from '../core/errors/index.js';

/**
 * Why a page the run chose to read gave it nothing: a bot check, a login or paywall stub, robots.txt,
 * a timeout, a page over the size cap or of a type no reader takes, an empty app shell, an HTTP
 * error, a server that cannot be reached, or bytes that could not be parsed.
 */
export type SkipReason =
  | 'blocked'
  | 'login'
  | 'paywall'
  | 'robots'
  | 'timeout'
  | 'too-large'
  | 'unsupported-type'
  | 'empty'
  | 'http-error'
  | 'unreachable'
  | 'unreadable';

/** A page the run could not read, as the result lists it (`skipped`). */
export interface SkippedPage {
  url: string;
  reason: SkipReason;
  /** The reader's own words (the status, the marker of a bot check, the timeout). */
  detail: string;
}

const reasonsByCode: Record<string, SkipReason> = {
  page_blocked_by_bot_check: 'blocked',
  page_disallowed_by_robots: 'robots',
  page_timeout: 'timeout',
  provider_timeout: 'timeout',
  page_over_limit: 'too-large',
  page_unsupported_type: 'unsupported-type',
  page_unreachable: 'unreachable',
  provider_unreachable: 'unreachable',
  page_http_error: 'http-error',
  provider_http_error: 'http-error',
  provider_rate_limited: 'http-error',
};

/** Why a read that threw gave nothing. */
export function skippedByError(url: string, error: unknown): SkippedPage {
  const detail = error instanceof Error ? error.message : String(error);
  const code = isDeepSearchError(error) ? error.code : undefined;
  let reason: SkipReason = (code && reasonsByCode[code]) || 'unreadable';
  if (reason === 'http-error' && isProviderError(error)) {
    if (error.statusCode === 401) reason = 'login';
    if (error.statusCode === 402) reason = 'paywall';
  }
  return { url, reason, detail };
}

const signInOnly = /\b(?:sign in|log in|login|register|create (?:a|an|your) (?:free )?account)\b/i;
const subscribe = /\bsubscri(?:be|ption|ber)|\bpaid\b|\bpremium\b|\bmembers?\b/i;

/** A page that loaded but holds no article: a paywall or login stub, or (nearly) nothing. */
export function skippedByPage(
  page: { url: string; text: string; paywalled?: boolean; emptyReason?: string },
  minReadableChars: number,
): SkippedPage | undefined {
  if (page.paywalled) {
    const login = signInOnly.test(page.text) && !subscribe.test(page.text);
    return {
      url: page.url,
      reason: login ? 'login' : 'paywall',
      detail: login
        ? 'only a login wall where the article should be'
        : 'only a paywall teaser where the article should be',
    };
  }
  if (page.text.trim().length >= minReadableChars) return undefined;
  return { url: page.url, reason: 'empty', detail: page.emptyReason ?? 'no readable content' };
}

const reasonPhrases: Record<SkipReason, [one: string, many: string]> = {
  blocked: ['blocked by a bot check', 'blocked by a bot check'],
  login: ['behind a login', 'behind a login'],
  paywall: ['behind a paywall', 'behind a paywall'],
  robots: ['disallowed by robots.txt', 'disallowed by robots.txt'],
  timeout: ['timed out', 'timed out'],
  'too-large': ['too large', 'too large'],
  'unsupported-type': ['of a type no reader takes', 'of a type no reader takes'],
  empty: ['empty', 'empty'],
  'http-error': ['answered with an HTTP error', 'answered with HTTP errors'],
  unreachable: ['unreachable', 'unreachable'],
  unreadable: ['unreadable', 'unreadable'],
};

/** "3 pages could not be read: 2 blocked by a bot check, 1 timed out" (empty when none were skipped). */
export function describeSkipped(skipped: readonly SkippedPage[]): string {
  if (skipped.length === 0) return '';
  const counts = new Map<SkipReason, number>();
  for (const page of skipped) counts.set(page.reason, (counts.get(page.reason) ?? 0) + 1);
  const parts = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([reason, count]) => `${count} ${reasonPhrases[reason][count === 1 ? 0 : 1]}`);
  const pages = skipped.length === 1 ? '1 page' : `${skipped.length} pages`;
  return `${pages} could not be read: ${parts.join(', ')}`;
}

/** The reason as a short phrase, for lists of skipped pages. */
export function skipReasonPhrase(reason: SkipReason): string {
  return reasonPhrases[reason][0];
}

import { describe, expect, it } from 'vitest';
import { ProviderError } from '../core/errors/index.js';
import { describeSkipped, skippedByError, skippedByPage } from './skipped-page.js';

const url = 'https://news.example/story';
const failure = (code: string, statusCode?: number) =>
  new ProviderError('x answered', { providerId: 'builtin-reader', code: code as never, statusCode });

describe('skippedByError', () => {
  it('names the reason from the error code and status', () => {
    expect(skippedByError(url, failure('page_blocked_by_bot_check', 403))).toEqual({
      url,
      reason: 'blocked',
      detail: 'x answered',
    });
    expect(skippedByError(url, failure('provider_timeout')).reason).toBe('timeout');
    expect(skippedByError(url, failure('page_timeout')).reason).toBe('timeout');
    expect(skippedByError(url, failure('page_disallowed_by_robots')).reason).toBe('robots');
    expect(skippedByError(url, failure('page_over_limit')).reason).toBe('too-large');
    expect(skippedByError(url, failure('page_unsupported_type')).reason).toBe('unsupported-type');
    expect(skippedByError(url, failure('page_http_error', 500)).reason).toBe('http-error');
    expect(skippedByError(url, failure('page_http_error', 401)).reason).toBe('login');
    expect(skippedByError(url, failure('page_http_error', 402)).reason).toBe('paywall');
    expect(skippedByError(url, new Error('parse failed')).reason).toBe('unreadable');
  });
});

describe('skippedByPage', () => {
  it('takes a paywall teaser or a login wall as a stub, not content', () => {
    const teaser = { url, text: 'The council voted. Subscribe to continue reading.', paywalled: true };
    expect(skippedByPage(teaser, 40)?.reason).toBe('paywall');
    const login = { url, text: 'Log in to continue. Create a free account.', paywalled: true };
    expect(skippedByPage(login, 40)?.reason).toBe('login');
  });

  it('takes a page with next to no text as empty, with its reason', () => {
    expect(skippedByPage({ url, text: ' ', emptyReason: 'an app shell' }, 40)).toEqual({
      url,
      reason: 'empty',
      detail: 'an app shell',
    });
    expect(skippedByPage({ url, text: 'x'.repeat(100) }, 40)).toBeUndefined();
  });
});

describe('describeSkipped', () => {
  it('counts pages by reason, most first, in one line', () => {
    const skipped = [
      { url, reason: 'blocked' as const, detail: '' },
      { url, reason: 'timeout' as const, detail: '' },
      { url, reason: 'blocked' as const, detail: '' },
    ];
    expect(describeSkipped(skipped)).toBe('3 pages could not be read: 2 blocked by a bot check, 1 timed out');
    expect(describeSkipped([{ url, reason: 'paywall', detail: '' }])).toBe(
      '1 page could not be read: 1 behind a paywall',
    );
    expect(describeSkipped([])).toBe('');
  });
});

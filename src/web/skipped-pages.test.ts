import { describe, expect, it } from 'vitest';
import { skipReasonLabel, toSkippedEntries } from './skipped-pages.js';

describe("the result's skipped pages on the web page", () => {
  it('keeps well-formed entries and drops the rest (older runs have none)', () => {
    expect(
      toSkippedEntries([
        { url: 'https://a.example/', reason: 'blocked', detail: 'a bot check answered with HTTP 403' },
        { url: 'https://b.example/', reason: 'timeout' },
        { reason: 'paywall' },
        null,
      ]),
    ).toEqual([
      { url: 'https://a.example/', reason: 'blocked', detail: 'a bot check answered with HTTP 403' },
      { url: 'https://b.example/', reason: 'timeout', detail: '' },
    ]);
    expect(toSkippedEntries(undefined)).toEqual([]);
  });

  it('names each reason in words, an unknown one as it is', () => {
    expect(skipReasonLabel('blocked')).toBe('blocked by a bot check');
    expect(skipReasonLabel('paywall')).toBe('behind a paywall');
    expect(skipReasonLabel('something-new')).toBe('something-new');
  });
});

import type { Page, Request } from 'playwright-core';

export interface NetworkQuietOptions {
  /** No request started or ended for this long: the page has settled. */
  quietMs?: number;
  /**
   * A request open longer than this is a stream or a long poll, which never ends by design; it
   * stops counting as pending (what it has written so far is read).
   */
  longLivedMs?: number;
}

export interface NetworkWatch {
  /** Resolves true once the page's network is quiet, false when `until` (epoch ms) comes first. */
  quiet(until: number): Promise<boolean>;
  /** Quiet at this moment. */
  isQuiet(): boolean;
}

/**
 * Watches a page's requests (attach before navigating) to tell when its scripts have fetched what
 * they render. Playwright's 'networkidle' counts every open request, so a page with a long poll or
 * an event stream never settles; here those stop counting after longLivedMs.
 */
export function watchNetwork(page: Page, options: NetworkQuietOptions = {}): NetworkWatch {
  const quietMs = options.quietMs ?? 500;
  const longLivedMs = options.longLivedMs ?? 3_000;
  const pending = new Map<Request, number>();
  let lastActivity = Date.now();
  page.on('request', (request) => {
    pending.set(request, Date.now());
    lastActivity = Date.now();
  });
  const done = (request: Request) => {
    pending.delete(request);
    lastActivity = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  const isQuiet = (now: number) => {
    if (now - lastActivity < quietMs) return false;
    for (const started of pending.values()) if (now - started < longLivedMs) return false;
    return true;
  };
  return {
    isQuiet: () => isQuiet(Date.now()),
    quiet: (until) =>
      new Promise((resolve) => {
        const check = () => {
          const now = Date.now();
          if (isQuiet(now)) return resolve(true);
          if (now >= until) return resolve(false);
          setTimeout(check, Math.min(100, until - now));
        };
        check();
      }),
  };
}

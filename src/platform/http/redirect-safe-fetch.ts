import { AbortedError } from '../../core/errors/index.js';

/** Headers that carry a provider's credentials, by the names the services use. */
const credentialHeader =
  /^(authorization|proxy-authorization|cookie|x-api-key|api-key|x-subscription-token|x-goog-api-key|x-auth-token|x-access-token)$|api[-_]?key|token|secret/i;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** One turn of the event loop: what was read with the previous call's answer has been handled. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
let settleAborts: () => Promise<void> | void = nextTurn;

/**
 * What every provider request of this thread does before it checks its signal, so that a client
 * that has gone is seen first: by default, wait one turn of the event loop (the hang-up may have
 * been read in the same turn as the previous call's answer, whose microtasks would otherwise send
 * the next request ahead of the close event). A run thread, whose hang-ups come as messages, reads
 * those at once instead (run-cancels.ts): a turn would hold every run's request back until the
 * thread has taken every message queued, so that a burst's first calls all left together.
 * Without an argument, the default again.
 */
export function settleAbortsBeforeRequests(settle?: () => void): void {
  settleAborts = settle ?? nextTurn;
}

export interface SafeRedirectOptions {
  /** Hops followed before giving up with a network error, as fetch does (default 20, fetch's own). */
  maxRedirects?: number;
}

/**
 * Wraps a fetch so that every provider call (LLM, search, reader service, embeddings, rerank):
 * - starts no request once its signal has fired (a client that left must not cost another call);
 * - follows redirects itself and drops credential headers when a hop leaves the origin. fetch
 *   strips only `Authorization` on a cross-origin redirect; Brave's `X-Subscription-Token`,
 *   Anthropic's `x-api-key`, Gemini's `x-goog-api-key`... would follow to the other host.
 * A caller that asks for `redirect: 'manual'` or `'error'` (the page reader) is passed through.
 */
export function withSafeRedirects(
  fetchImpl: typeof globalThis.fetch,
  options: SafeRedirectOptions = {},
): typeof globalThis.fetch {
  const maxRedirects = options.maxRedirects ?? 20;
  const safeFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    if (init.signal) {
      // A hang-up already in fires its abort before deciding to send (settleAbortsBeforeRequests).
      await settleAborts();
      if (init.signal.aborted) throw new AbortedError(undefined, { cause: init.signal.reason });
    }
    if (input instanceof Request || (init.redirect && init.redirect !== 'follow')) {
      return fetchImpl(input, init);
    }
    let url = new URL(String(input));
    let headers = new Headers(init.headers);
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    for (let hop = 0; ; hop++) {
      const response = await fetchImpl(url, { ...init, method, headers, body, redirect: 'manual' });
      const location = response.headers.get('location');
      if (!redirectStatuses.has(response.status) || !location) return response;
      if (hop >= maxRedirects)
        throw new TypeError('fetch failed', { cause: new Error('redirect count exceeded') });
      await response.body?.cancel().catch(() => undefined);
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new TypeError('fetch failed', { cause: new Error(`redirect to a ${next.protocol} URL`) });
      }
      if (next.origin !== url.origin) headers = withoutCredentials(headers);
      // As fetch does: 303, and 301/302 after a POST, continue as a GET without the body.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      if (init.signal?.aborted) throw new AbortedError(undefined, { cause: init.signal.reason });
      url = next;
    }
  };
  return safeFetch as typeof globalThis.fetch;
}

function withoutCredentials(headers: Headers): Headers {
  const kept = new Headers();
  for (const [name, value] of headers) if (!credentialHeader.test(name)) kept.set(name, value);
  return kept;
}

import { ProviderError, throwIfAborted } from '../../core/errors/index.js';
import { anySignal } from '../../core/link-signals.js';
import { parseRetryAfter } from '../retry/with-retry.js';
import { detectChallenge } from './challenge-page.js';
import { displayUrl } from './describe-network-error.js';
import { assertUrlAllowed, type HostLookup } from './network-guard.js';
import { toTransportError } from './request-json.js';

export interface FetchPageOptions {
  url: string;
  providerId: string;
  fetch?: typeof globalThis.fetch;
  /** For the whole fetch: every redirect hop and the body. */
  timeoutMs: number;
  /** Bytes kept; a longer body is cut there and marked truncated. */
  maxBytes: number;
  maxRedirects: number;
  allowPrivateNetwork: boolean;
  userAgent: string;
  signal?: AbortSignal;
  /** DNS lookup for the network guard; tests inject one. */
  lookup?: HostLookup;
  /** Whether a URL goes through a proxy, which resolves names the local DNS may not know. */
  viaProxy?: (url: string) => boolean;
}

export interface FetchedBody {
  /** After redirects. */
  url: string;
  status: number;
  contentType: string;
  bytes: Uint8Array;
  truncated: boolean;
  lastModified?: string;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/**
 * GET a page with redirects followed by hand, so the network guard judges every hop before any
 * connection is made. Compressed bodies are decoded by fetch; the size cap counts decoded bytes.
 */
export async function fetchPage(options: FetchPageOptions): Promise<FetchedBody> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = anySignal(timeout, options.signal);
  let url = options.url;
  for (let hop = 0; ; hop++) {
    throwIfAborted(options.signal);
    await assertUrlAllowed(url, {
      allowPrivateNetwork: options.allowPrivateNetwork,
      lookup: options.lookup,
      viaProxy: options.viaProxy?.(url),
    });
    const response = await send(url, signal, timeout, options);
    if (redirectStatuses.has(response.status)) {
      url = nextHop(url, response, hop, options);
      continue;
    }
    if (!response.ok) throw await statusError(url, response, options.providerId);
    try {
      const { bytes, truncated } = await readCapped(response, options.maxBytes);
      return {
        url,
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        bytes,
        truncated,
        lastModified: response.headers.get('last-modified') ?? undefined,
      };
    } catch (cause) {
      throw toTransportError(cause, { ...options, url, nameProvider: false }, timeout);
    }
  }
}

async function send(
  url: string,
  signal: AbortSignal,
  timeout: AbortSignal,
  options: FetchPageOptions,
): Promise<Response> {
  try {
    return await (options.fetch ?? globalThis.fetch)(url, {
      redirect: 'manual',
      signal,
      headers: {
        'user-agent': options.userAgent,
        accept:
          'text/html,application/xhtml+xml,text/plain;q=0.9,text/markdown;q=0.9,application/json;q=0.8,*/*;q=0.5',
        'accept-language': 'en;q=0.9,*;q=0.5',
        // fetch offers brotli only over https by default; servers compress plain http pages too.
        'accept-encoding': 'gzip, deflate, br',
      },
    });
  } catch (cause) {
    throw toTransportError(cause, { ...options, url, nameProvider: false }, timeout);
  }
}

function nextHop(url: string, response: Response, hop: number, options: FetchPageOptions): string {
  void response.body?.cancel();
  const location = response.headers.get('location');
  const fail = (reason: string): never => {
    throw new ProviderError(`${displayUrl(url)} ${reason}`, {
      providerId: options.providerId,
      code: 'page_bad_redirect',
    });
  };
  if (!location) fail(`answered HTTP ${response.status} without a Location`);
  if (hop >= options.maxRedirects) fail(`redirected more than ${options.maxRedirects} times`);
  try {
    return new URL(location as string, url).href;
  } catch {
    return fail('redirected to an invalid URL');
  }
}

/** Bytes of an error page read to tell a bot check from a plain error. */
const challengeSniffBytes = 64 * 1024;

async function statusError(url: string, response: Response, providerId: string): Promise<ProviderError> {
  const challenge = await sniffChallenge(response);
  if (challenge)
    return new ProviderError(`${displayUrl(url)} answered with ${challenge}`, {
      providerId,
      code: 'page_blocked_by_bot_check',
      statusCode: response.status,
      // The same client asking again meets the same check.
      isRetryable: false,
    });
  return new ProviderError(`${displayUrl(url)} answered HTTP ${response.status}`, {
    providerId,
    code: 'page_http_error',
    statusCode: response.status,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  });
}

/** A bot check hides behind 403/429/503: its headers and the first bytes of its body say so. */
async function sniffChallenge(response: Response): Promise<string | undefined> {
  if (![403, 429, 503].includes(response.status)) {
    void response.body?.cancel();
    return undefined;
  }
  try {
    const { bytes } = await readCapped(response, challengeSniffBytes);
    const body = new TextDecoder().decode(bytes);
    return detectChallenge({ status: response.status, headers: response.headers, body });
  } catch {
    return detectChallenge({ status: response.status, headers: response.headers, body: '' });
  }
}

async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}

import type { ProxySettings } from '../../../config/proxy-settings.js';
import { ProviderError } from '../../../core/errors/index.js';
import { decodeBody } from '../../../extraction/decode-body.js';
import { type ContentExtractor, pageWithNotes } from '../../../extraction/worker/content-extractor.js';
import { defaultExtractor } from '../../../extraction/worker/shared-extraction-pool.js';
import { detectChallenge } from '../../../platform/http/challenge-page.js';
import { displayUrl } from '../../../platform/http/describe-network-error.js';
import { type FetchedBody, type FetchPageOptions, fetchPage } from '../../../platform/http/fetch-page.js';
import type { HostLookup } from '../../../platform/http/network-guard.js';
import { createOutboundFetch } from '../../../platform/http/outbound-fetch.js';
import { createProxyRoute } from '../../../platform/http/proxy-route.js';
import { withRetry } from '../../../platform/retry/with-retry.js';
import type { Page, PageReader, ReadOptions } from '../../spec/page-reader.js';
import { createRobotsPolicy, type RobotsPolicy } from './robots-policy.js';

export interface BuiltinReaderSettings {
  /** Replaces the guarded fetch; the guard then only judges addresses before each hop, not at connect. */
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  allowPrivateNetwork?: boolean;
  userAgent?: string;
  /** Skip pages a site's robots.txt disallows for deepsearch (or for every agent). Default false. */
  respectRobotsTxt?: boolean;
  /** Retries of retryable failures (timeouts, 429, 5xx); default 1. */
  maxRetries?: number;
  /** DNS lookup for the network guard, before each hop and at connect; tests inject one. */
  lookup?: HostLookup;
  /** Parses what was fetched; default the default settings' extraction pool (processes, not this thread). */
  extractor?: ContentExtractor;
  /** Proxies and NO_PROXY (resolveProxySettings); pages are judged before they go to the proxy. */
  proxy?: ProxySettings;
}

const providerId = 'builtin-reader';
/** An app shell as this reader returns it (the auto reader renders it, when it can). */
export const unrenderedShellReason =
  'an app shell whose text its scripts write, which the builtin reader does not run: the browser reader (--reader browser, or auto) renders it in Chromium';
export const defaultUserAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 deepsearch/0.1';

/**
 * Fetches pages itself (network guard before every hop and on the address each connection dials,
 * or before the proxy gets the request), then reads them by content type (HTML through our
 * extractor, PDF, DOCX, text, markdown, JSON) in an extraction process, under the extraction limits.
 */
export function createBuiltinReader(settings: BuiltinReaderSettings = {}): PageReader {
  const allowPrivateNetwork = settings.allowPrivateNetwork ?? false;
  const route = createProxyRoute(settings.proxy);
  const fetchOptions = (url: string, signal: AbortSignal | undefined): FetchPageOptions => ({
    url,
    providerId,
    fetch: settings.fetch ?? guardedFetch,
    timeoutMs: settings.timeoutMs ?? 20_000,
    maxBytes: settings.maxBytes ?? 5 * 1024 * 1024,
    maxRedirects: settings.maxRedirects ?? 5,
    allowPrivateNetwork,
    userAgent: settings.userAgent ?? defaultUserAgent,
    signal,
    lookup: settings.lookup,
    viaProxy: (target) => URL.canParse(target) && route(new URL(target)) !== undefined,
  });
  const guardedFetch = createOutboundFetch({
    proxy: settings.proxy,
    guard: { allowPrivateNetwork, lookup: settings.lookup },
  });
  const robots = settings.respectRobotsTxt ? createReaderRobotsPolicy(fetchOptions) : undefined;
  const extractor = () => settings.extractor ?? defaultExtractor();
  return {
    specificationVersion: 'v1',
    id: 'builtin',
    // The extraction process starts while the first page is fetched (or the first LLM call runs).
    prepare: async () => extractor().prepare?.(),
    async read(url: string, options: ReadOptions = {}): Promise<Page> {
      if (robots && !(await robots.isAllowed(url, options.signal))) {
        throw new ProviderError(`${displayUrl(url)} is disallowed by the site's robots.txt`, {
          providerId,
          code: 'page_disallowed_by_robots',
        });
      }
      const fetched = await withRetry(() => fetchPage(fetchOptions(url, options.signal)), {
        maxRetries: settings.maxRetries ?? 1,
        signal: options.signal,
      });
      const page = pageWithNotes(
        await extractor().extract({ requestedUrl: url, fetched, providerId }, options),
      );
      refuseChallenge(page, fetched);
      const read = { ...page, status: fetched.status, fetchedAt: new Date().toISOString() };
      return read.emptyShell ? { ...read, emptyReason: unrenderedShellReason } : read;
    },
  };
}

/** A bot check served with HTTP 200 (an interstitial) is not the page: refused, as fetchPage refuses a 403 one. */
function refuseChallenge(page: Page, fetched: FetchedBody): void {
  if (!/html/i.test(fetched.contentType)) return;
  const body = decodeBody(fetched.bytes.subarray(0, 64 * 1024), fetched.contentType);
  const challenge = detectChallenge({
    status: fetched.status,
    body,
    visibleText: `${page.title}\n${page.text}`,
  });
  if (!challenge) return;
  throw new ProviderError(`${displayUrl(page.url)} answered with ${challenge}`, {
    providerId,
    code: 'page_blocked_by_bot_check',
    statusCode: fetched.status,
  });
}

function createReaderRobotsPolicy(
  fetchOptions: (url: string, signal: AbortSignal | undefined) => FetchPageOptions,
): RobotsPolicy {
  return createRobotsPolicy({
    agentToken: 'deepsearch',
    async fetchRobots(robotsUrl, signal) {
      // A missing or failing robots.txt means no rules (RFC 9309 treats 4xx as "allow all").
      const fetched = await fetchPage({ ...fetchOptions(robotsUrl, signal), maxBytes: 512 * 1024 });
      return decodeBody(fetched.bytes, fetched.contentType);
    },
  });
}

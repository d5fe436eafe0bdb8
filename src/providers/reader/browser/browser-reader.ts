import type { Browser } from 'playwright-core';
import type { ProxySettings } from '../../../config/proxy-settings.js';
import {
  BlockedUrlError,
  isAbortError,
  isDeepSearchError,
  ProviderError,
  throwIfAborted,
} from '../../../core/errors/index.js';
import { type ContentExtractor, pageWithNotes } from '../../../extraction/worker/content-extractor.js';
import { defaultExtractor } from '../../../extraction/worker/shared-extraction-pool.js';
import { type ChromiumStatus, pageHeapMb } from '../../../platform/browser/launch-chromium.js';
import { describeNetworkError, displayUrl } from '../../../platform/http/describe-network-error.js';
import { assertUrlAllowed, type HostLookup } from '../../../platform/http/network-guard.js';
import { createProxyRoute } from '../../../platform/http/proxy-route.js';
import { withRetry } from '../../../platform/retry/with-retry.js';
import type { Page, PageReader, ReadOptions } from '../../spec/page-reader.js';
import { defaultUserAgent } from '../builtin/builtin-reader.js';
import { createRobotsPolicy } from '../builtin/robots-policy.js';
import { writtenTextChars } from './dom-quiet.js';
import { type GuardProxy, type ProxyProblem, startGuardProxy } from './guard-proxy.js';
import type { DialTunnel } from './guard-tunnel.js';
import { type Rendered, renderPage } from './render-page.js';
import { useChromium, warmChromium } from './shared-chromium.js';

export interface BrowserReaderSettings {
  /** findChromium(reader.chromiumPath): the executable, or why there is none. */
  chromium: ChromiumStatus;
  /** Navigation and settling together. */
  timeoutMs?: number;
  /** The page's HTML as rendered is cut here; all its requests together may carry four times as much. */
  maxBytes?: number;
  /** Redirects of the page itself (its scripts and images are not counted). */
  maxRedirects?: number;
  allowPrivateNetwork?: boolean;
  userAgent?: string;
  /** The corporate proxy and NO_PROXY: the guard proxy sends allowed requests on through it. */
  proxy?: ProxySettings;
  /** DNS lookup of the guard; tests inject one. */
  lookup?: HostLookup;
  /**
   * Reads what is not an HTML page (PDF, JSON, text, a download) and the sites' robots.txt when
   * respectRobotsTxt is on: the builtin reader.
   */
  documents?: PageReader;
  respectRobotsTxt?: boolean;
  /** Replace the guard proxy's onward fetch and direct dial (tests: fail if reached). */
  proxyFetch?: typeof globalThis.fetch;
  dial?: DialTunnel;
  /** Told each request of a page the guard proxy refused or could not carry. */
  onProxyProblem?: (problem: ProxyProblem) => void;
  /** Parses the rendered HTML, as the builtin reader parses what it fetched; default the default settings' extraction pool. */
  extractor?: ContentExtractor;
}

const providerId = 'browser-reader';
/** A page's scripts, styles and data come on top of its HTML. */
const trafficPerPage = 4;

/**
 * Reads pages the way a person's browser shows them: a local headless Chromium runs their
 * scripts, then the DOM goes through the builtin reader's extraction. Every request the page
 * makes goes through a guard proxy of this read (startGuardProxy): the network guard, then the
 * configured proxy or a direct connection.
 */
export function createBrowserReader(settings: BrowserReaderSettings): PageReader {
  const timeoutMs = settings.timeoutMs ?? 20_000;
  const maxBytes = settings.maxBytes ?? 5 * 1024 * 1024;
  const allowPrivateNetwork = settings.allowPrivateNetwork ?? false;
  const route = createProxyRoute(settings.proxy);
  const extractor = () => settings.extractor ?? defaultExtractor();
  const robots =
    settings.respectRobotsTxt && settings.documents ? createDocumentRobots(settings.documents) : undefined;
  const attempt = async (url: string, signal: AbortSignal | undefined): Promise<Page> => {
    const proxy = await startGuardProxy({
      allowPrivateNetwork,
      lookup: settings.lookup,
      proxy: settings.proxy,
      maxBytes: maxBytes * trafficPerPage,
      fetch: settings.proxyFetch,
      dial: settings.dial,
      onProblem: settings.onProxyProblem,
    });
    try {
      const rendered = await useChromium(
        settings.chromium,
        (browser) => renderGuarded(browser, { url, proxy, timeoutMs, signal, userAgent: settings.userAgent }),
        signal,
      );
      // A cancelled read closed its context: that is why the page "failed".
      throwIfAborted(signal);
      if (rendered.kind === 'failed') throw failure(proxy, rendered, timeoutMs);
      // The proxy's refusal, shown in place of the page a redirect or a script went to.
      const shown = proxy.problems.find((problem) => problem.target === rendered.url);
      if (shown) throw problemError(shown.error, rendered.url);
      if (rendered.kind === 'document') {
        return readDocument(settings.documents, url, rendered.contentType, signal);
      }
      const limits = { proxy, maxBytes, maxRedirects: settings.maxRedirects ?? 5, timeoutMs };
      return renderedToPage(url, rendered, limits, { extractor: extractor(), signal });
    } finally {
      await proxy.close();
    }
  };
  return {
    specificationVersion: 'v1',
    id: 'browser',
    freeToPrefetch: true,
    prepare: () =>
      settings.chromium.available
        ? warmChromium(settings.chromium).catch(() => undefined)
        : Promise.resolve(),
    async read(url: string, options: ReadOptions = {}): Promise<Page> {
      // Refused here, without a browser: other schemes (file:...), and private targets.
      await assertUrlAllowed(url, {
        allowPrivateNetwork,
        lookup: settings.lookup,
        viaProxy: URL.canParse(url) && route(new URL(url)) !== undefined,
      });
      if (robots && !(await robots.isAllowed(url, options.signal))) {
        throw new ProviderError(`${displayUrl(url)} is disallowed by the site's robots.txt`, {
          providerId,
          code: 'page_disallowed_by_robots',
        });
      }
      // A crashed browser is started again; one more try, on the new one.
      return withRetry(() => attempt(url, options.signal), { maxRetries: 1, signal: options.signal });
    },
  };
}

async function renderGuarded(
  browser: Browser,
  input: { url: string; proxy: GuardProxy; timeoutMs: number; signal?: AbortSignal; userAgent?: string },
): Promise<Rendered> {
  try {
    return await renderPage(browser, {
      url: input.url,
      proxyUrl: input.proxy.url,
      userAgent: input.userAgent ?? defaultUserAgent,
      timeoutMs: input.timeoutMs,
      signal: input.signal,
    });
  } catch (error) {
    throwIfAborted(input.signal);
    if (isAbortError(error)) throw error;
    // The page's renderer died and the browser lives on: the page went past the heap a page may
    // use (Chromium's flags cap it), or crashed its renderer some other way. Not tried again.
    if ((error as { pageCrashed?: boolean }).pageCrashed && browser.isConnected()) {
      throw new ProviderError(
        `${displayUrl(input.url)} crashed its renderer in Chromium (a page's scripts may use ${pageHeapMb} MB; ` +
          'it may have needed more): it was not read',
        { providerId, code: 'page_over_limit', cause: error },
      );
    }
    const crashed = (error as { pageCrashed?: boolean }).pageCrashed || !browser.isConnected();
    throw new ProviderError(
      crashed
        ? `Chromium crashed while reading ${displayUrl(input.url)}; it is started again for the next read`
        : `Chromium failed to read ${displayUrl(input.url)}: ${(error as Error).message.split('\n')[0]}`,
      {
        providerId,
        code: crashed ? 'browser_crashed' : 'browser_failed',
        isRetryable: crashed,
        cause: error,
      },
    );
  }
}

/**
 * The one place a rendered page becomes a Page: the DOM's HTML through the extractor the builtin
 * reader uses (the extraction pool: a hostile DOM is parsed off this process, under its limits).
 */
async function renderedToPage(
  requestedUrl: string,
  rendered: Extract<Rendered, { kind: 'html' }>,
  limits: { proxy: GuardProxy; maxBytes: number; maxRedirects: number; timeoutMs: number },
  extraction: { extractor: ContentExtractor; signal?: AbortSignal },
): Promise<Page> {
  if (rendered.status >= 400) {
    const problem = limits.proxy.problemFor(rendered.url);
    if (problem) throw problemError(problem.error, rendered.url);
    throw new ProviderError(`${displayUrl(rendered.url)} answered HTTP ${rendered.status}`, {
      providerId,
      code: 'page_http_error',
      statusCode: rendered.status,
    });
  }
  if (rendered.redirects > limits.maxRedirects) {
    throw new ProviderError(`${displayUrl(requestedUrl)} redirected more than ${limits.maxRedirects} times`, {
      providerId,
      code: 'page_bad_redirect',
    });
  }
  const bytes = new TextEncoder().encode(rendered.html);
  const fetched = {
    url: rendered.url,
    status: rendered.status,
    contentType: 'text/html; charset=utf-8',
    bytes: bytes.byteLength > limits.maxBytes ? bytes.subarray(0, limits.maxBytes) : bytes,
    truncated: bytes.byteLength > limits.maxBytes,
    ...(rendered.lastModified ? { lastModified: rendered.lastModified } : {}),
  };
  const content = await extraction.extractor.extract(
    { requestedUrl, fetched, providerId },
    { signal: extraction.signal },
  );
  const { emptyShell, ...extracted } = pageWithNotes(content);
  const page = { ...extracted, status: rendered.status, fetchedAt: new Date().toISOString() };
  // The shell's marks stay in a rendered DOM (its <noscript>, its scripts): what tells that the
  // scripts wrote is the text Chromium shows. Still next to none: said, never a silent empty page.
  if (!emptyShell || rendered.textChars >= writtenTextChars) return page;
  return { ...page, emptyShell, emptyReason: stillEmptyReason(rendered.settled, limits.timeoutMs) };
}

/** Why a page Chromium rendered is still an empty shell. */
export function stillEmptyReason(settled: boolean, timeoutMs: number): string {
  return settled
    ? 'an app shell whose scripts wrote no text: Chromium ran them until its network and DOM were quiet'
    : `an app shell whose scripts wrote no text within ${timeoutMs / 1000} s in Chromium (limit: DEEPSEARCH_READER_TIMEOUT)`;
}

async function readDocument(
  documents: PageReader | undefined,
  url: string,
  contentType: string,
  signal: AbortSignal | undefined,
): Promise<Page> {
  if (documents) return documents.read(url, { signal });
  throw new ProviderError(
    `${displayUrl(url)} is ${contentType}, not an HTML page: the browser reader reads HTML`,
    {
      providerId,
      code: 'page_unsupported_type',
    },
  );
}

/** Why the page did not load: the guard's refusal or the proxy's failure when there was one. */
function failure(
  proxy: GuardProxy,
  rendered: Extract<Rendered, { kind: 'failed' }>,
  timeoutMs: number,
): Error {
  const problem = proxy.problemFor(rendered.url);
  if (problem) return problemError(problem.error, rendered.url);
  if (rendered.timedOut) {
    return new ProviderError(`${displayUrl(rendered.url)} did not load within ${timeoutMs / 1000}s`, {
      providerId,
      code: 'page_timeout',
    });
  }
  return new ProviderError(`cannot load ${displayUrl(rendered.url)}: ${rendered.reason}`, {
    providerId,
    code: 'page_unreachable',
  });
}

function problemError(error: Error, url: string): Error {
  if (BlockedUrlError.isInstance(error) || isDeepSearchError(error)) return error;
  return new ProviderError(`cannot reach ${displayUrl(url)}: ${describeNetworkError(error)}`, {
    providerId,
    code: 'page_unreachable',
    cause: error,
  });
}

/** robots.txt read with the builtin reader (as text); a missing one allows everything. */
function createDocumentRobots(documents: PageReader) {
  return createRobotsPolicy({
    agentToken: 'deepsearch',
    fetchRobots: (robotsUrl, signal) => documents.read(robotsUrl, { signal }).then((page) => page.text),
  });
}

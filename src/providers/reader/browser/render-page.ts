import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { type DomState, waitForDomQuiet } from './dom-quiet.js';
import { type NetworkWatch, watchNetwork } from './network-quiet.js';

export interface RenderOptions {
  url: string;
  /** The guard proxy every request of the page goes through (loopback included). */
  proxyUrl: string;
  userAgent: string;
  /** For navigation and settling, from the moment the page's tab is open; the DOM is read as it is then. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export type Rendered =
  /**
   * The DOM after the page's scripts ran and both its network and its DOM settled; `settled`
   * false when the deadline came first.
   */
  | {
      kind: 'html';
      url: string;
      html: string;
      status: number;
      redirects: number;
      lastModified?: string;
      settled: boolean;
      /** Visible characters of the body when the DOM was last watched, blanks left out. */
      textChars: number;
    }
  /** Not an HTML page (a PDF, JSON, a download): to be read without a browser. */
  | { kind: 'document'; url: string; contentType: string }
  /** The page did not load: `url` is the navigation that failed (a redirect hop, a script's navigation). */
  | { kind: 'failed'; url: string; reason: string; timedOut: boolean };

/** What a read never loads: nothing of it reaches the text. */
const skippedResources = new Set(['image', 'media', 'font']);
const htmlTypes = /^(text\/html|application\/xhtml\+xml)\b/i;

/**
 * Opens the URL in a fresh context of `browser` (closed after, whatever happens): every request
 * through the guard proxy, service workers blocked, images, media and fonts not loaded; waits for
 * the DOM, then for the network and the DOM to settle, bounded by the deadline; returns the DOM as HTML.
 */
export async function renderPage(browser: Browser, options: RenderOptions): Promise<Rendered> {
  const context = await browser.newContext({
    proxy: { server: options.proxyUrl, bypass: '<-loopback>' },
    serviceWorkers: 'block',
    acceptDownloads: false,
    userAgent: options.userAgent,
  });
  const onAbort = () => void context.close().catch(() => undefined);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await context.route('**/*', (route) =>
      skippedResources.has(route.request().resourceType())
        ? route.abort('blockedbyclient')
        : route.continue(),
    );
    return await withinDeadline(options, (startClock) => navigate(context, options, startClock));
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await closeOrKill(context, browser);
  }
}

/**
 * Time past the deadline for reading the DOM as it is then; a renderer still busy after it is
 * shut. On a loaded machine the last look at the DOM comes back some hundreds of ms late.
 */
const readGraceMs = 2_000;
/** How long closing a context may take before the browser itself is closed. */
const closeGraceMs = 3_000;

/**
 * Every step of a read under one deadline: navigation and settling stop at `timeoutMs` on their
 * own, but reading the DOM waits on the renderer, and a page whose script never yields
 * (`while (true) {}`) holds it for ever. Past the deadline and a short grace the read fails as
 * timed out, whatever step it was in; the caller then shuts the renderer (closeOrKill).
 *
 * The page's clock starts once its tab is open (`startClock`, which gives the deadline): opening
 * it is Chromium's work, not the page's, and takes seconds on a loaded machine. Until then the
 * watchdog counts from now, so a browser that never opens the tab is bounded too.
 */
function withinDeadline(
  options: RenderOptions,
  work: (startClock: () => number) => Promise<Rendered>,
): Promise<Rendered> {
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<Rendered>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          kind: 'failed',
          url: options.url,
          reason: 'the page kept its renderer busy',
          timedOut: true,
        }),
      options.timeoutMs + readGraceMs,
    );
  });
  // The watchdog counted again from now (a cleared one stays cleared).
  const startClock = () => {
    timer?.refresh();
    return Date.now() + options.timeoutMs;
  };
  const working = work(startClock);
  working.catch(() => undefined);
  return Promise.race([working, overrun]).finally(() => clearTimeout(timer));
}

/**
 * Closes the read's context, which ends its renderer; a renderer so busy that the close does not
 * finish in a few seconds takes the browser down with it (the next read launches another).
 */
async function closeOrKill(context: BrowserContext, browser: Browser): Promise<void> {
  const closed = context.close().then(
    () => true,
    () => true,
  );
  const inTime = await Promise.race([closed, sleep(closeGraceMs).then(() => false)]);
  if (!inTime) await Promise.race([browser.close().catch(() => undefined), sleep(closeGraceMs)]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

async function navigate(
  context: BrowserContext,
  options: RenderOptions,
  startClock: () => number,
): Promise<Rendered> {
  const page = await context.newPage();
  const deadline = startClock();
  const crashed = new Promise<never>((_, reject) =>
    page.once('crash', () => reject(Object.assign(new Error('the page crashed'), { pageCrashed: true }))),
  );
  crashed.catch(() => undefined);
  const network = watchNetwork(page);
  let navigation = options.url;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigation = request.url();
  });
  let response: Response | null;
  try {
    response = await Promise.race([
      page.goto(options.url, { waitUntil: 'domcontentloaded', timeout: options.timeoutMs }),
      crashed,
    ]);
  } catch (error) {
    if ((error as { pageCrashed?: boolean }).pageCrashed) throw error;
    // "page.goto: net::ERR_… at URL": the reason alone.
    const reason = ((error as Error).message.split('\n')[0] ?? 'navigation failed')
      .replace(/^page\.goto: /, '')
      .replace(/ at \S+$/, '');
    if (!page.context().browser()?.isConnected()) throw error;
    if (/Download is starting/i.test(reason))
      return { kind: 'document', url: navigation, contentType: 'a download' };
    return { kind: 'failed', url: navigation, reason, timedOut: (error as Error).name === 'TimeoutError' };
  }
  const contentType = response ? ((await response.allHeaders())['content-type'] ?? '') : 'text/html';
  if (!htmlTypes.test(contentType))
    return { kind: 'document', url: response?.url() ?? navigation, contentType };
  const { settled, textChars } = await Promise.race([settle(page, network, deadline), crashed]);
  const url = page.url();
  if (!/^https?:/i.test(url))
    return { kind: 'failed', url: navigation, reason: `the page went to ${url}`, timedOut: false };
  return {
    kind: 'html',
    url,
    html: await Promise.race([readDom(page), crashed]),
    status: response?.status() ?? 200,
    redirects: redirectCount(response),
    settled,
    textChars,
    ...(response?.headers()['last-modified'] ? { lastModified: response.headers()['last-modified'] } : {}),
  };
}

/**
 * Until the network and the DOM are quiet at once: a script that fetches, waits, then writes is
 * waited for (dom-quiet.ts), and a mutation that starts requests is waited for too. Bounded by
 * the deadline.
 */
async function settle(page: Page, network: NetworkWatch, deadline: number): Promise<DomState> {
  let dom: DomState = { settled: false, textChars: 0 };
  while (Date.now() < deadline) {
    await network.quiet(deadline);
    dom = await waitForDomQuiet(page, deadline);
    if (!dom.settled) {
      // A navigation ended the wait: the new page's turn.
      const timeout = Math.max(1, deadline - Date.now());
      await page.waitForLoadState('domcontentloaded', { timeout }).catch(() => undefined);
      continue;
    }
    if (network.isQuiet()) return dom;
  }
  return { ...dom, settled: false };
}

function redirectCount(response: Response | null): number {
  let count = 0;
  for (let request = response?.request().redirectedFrom(); request; request = request.redirectedFrom())
    count++;
  return count;
}

/** The DOM as HTML; a script navigating at that moment gets one more try once the new page is in. */
async function readDom(page: Page): Promise<string> {
  try {
    return await page.content();
  } catch {
    await page.waitForLoadState('domcontentloaded', { timeout: 2_000 }).catch(() => undefined);
    return page.content();
  }
}

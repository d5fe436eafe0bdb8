import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appShellPage } from '../../../../test/helpers/app-shell-page.js';
import { closeChromium, findChromium, launchChromium } from '../../../platform/browser/launch-chromium.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../../testing/fake-http-server.js';
import { type GuardProxy, startGuardProxy } from './guard-proxy.js';
import { renderPage } from './render-page.js';

// A real Chromium renders pages served on 127.0.0.1 through the guard proxy (private addresses
// allowed, as a test must). Opening a tab is slowed on purpose, as a loaded machine slows it: the
// page's time starts once its tab is open, and the watchdog that shuts a busy renderer keeps to it.
const chromium = findChromium(undefined);
const canRun = chromium.available || process.env.CI === 'true';

const article = { title: 'Tides', paragraphs: ['High tide at Brest is at 12:04 today.'] };
let web: FakeHttpServer;
let guard: GuardProxy;
let browser: Browser;

beforeAll(async () => {
  web = await startFakeHttpServer((request, response) => {
    if (request.path === '/api/tides') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(article));
      return;
    }
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(appShellPage({ article: { dataUrl: '/api/tides' }, mountId: 'app', neverWrites: true }));
  });
  if (!canRun) return;
  guard = await startGuardProxy({ allowPrivateNetwork: true, maxBytes: 1 << 20 });
  browser = await launchChromium(chromium);
});

afterAll(async () => {
  await guard?.close();
  await closeChromium();
  await web.close();
});

/** The browser, with every new tab opened `delayMs` late (never, for Infinity). */
function slowTabs(real: Browser, delayMs: number): Browser {
  const slowContext = (context: BrowserContext) =>
    new Proxy(context, {
      get(target, key, receiver) {
        if (key !== 'newPage') return Reflect.get(target, key, receiver);
        return async () => {
          await new Promise((resolve) => {
            if (Number.isFinite(delayMs)) setTimeout(resolve, delayMs);
          });
          return target.newPage();
        };
      },
    });
  return new Proxy(real, {
    get(target, key, receiver) {
      if (key !== 'newContext') return Reflect.get(target, key, receiver);
      return async (...args: Parameters<Browser['newContext']>) =>
        slowContext(await target.newContext(...args));
    },
  });
}

describe.skipIf(!canRun)('renderPage (real Chromium, tabs opened late)', { timeout: 60_000 }, () => {
  it('gives the page its whole time when opening its tab took longer than the grace: a shell that never writes is read unsettled', async () => {
    const started = Date.now();
    const rendered = await renderPage(slowTabs(browser, 2_500), {
      url: `${web.url}/broken`,
      proxyUrl: guard.url,
      userAgent: 'deepsearch-test',
      timeoutMs: 2_000,
    });
    expect(rendered).toMatchObject({ kind: 'html', settled: false, status: 200 });
    expect(rendered.kind === 'html' && rendered.textChars).toBeLessThan(100);
    // The tab's 2.5 s, then the page's 2 s: not cut at 2 s plus the grace from the start.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_400);
  });

  it('still ends a read whose tab never opens, as timed out, by the page time and the grace', async () => {
    const started = Date.now();
    const rendered = await renderPage(slowTabs(browser, Number.POSITIVE_INFINITY), {
      url: `${web.url}/broken`,
      proxyUrl: guard.url,
      userAgent: 'deepsearch-test',
      timeoutMs: 1_000,
    });
    expect(rendered).toMatchObject({ kind: 'failed', timedOut: true, url: `${web.url}/broken` });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

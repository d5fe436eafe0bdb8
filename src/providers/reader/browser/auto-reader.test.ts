import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appShellPage } from '../../../../test/helpers/app-shell-page.js';
import { loadConfig } from '../../../config/load-config.js';
import { AbortedError, ProviderError } from '../../../core/errors/index.js';
import { closeChromium, findChromium } from '../../../platform/browser/launch-chromium.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../../testing/fake-http-server.js';
import type { Page, PageReader } from '../../spec/page-reader.js';
import { createBuiltinReader } from '../builtin/builtin-reader.js';
import { createPageReader } from '../reader-registry.js';
import { createAutoReader } from './auto-reader.js';

const article = {
  title: 'Tides of Brest',
  paragraphs: ['High tide at Brest is at 12:04 today.', 'Low tide follows at 18:17.'],
};
const prose = Array.from(
  { length: 12 },
  (_, index) => `Paragraph ${index} tells the reader about the tides.`,
);
const pages: Record<string, string> = {
  '/article': `<html><head><title>Tides</title></head><body><article><h1>Tides</h1>${prose.map((p) => `<p>${p}</p>`).join('')}</article><script src="/app.js"></script></body></html>`,
  '/short': '<html><body><h1>Moved</h1><p>This page has moved.</p></body></html>',
  '/shell': appShellPage({ article }),
  '/fetching-shell': appShellPage({ article: { dataUrl: '/api/article' } }),
};

const challengePage =
  '<html><head><title>Just a moment...</title></head><body><p>Checking your browser before accessing the site.</p></body></html>';
let blockedRequests = 0;
let web: FakeHttpServer;

beforeAll(async () => {
  web = await startFakeHttpServer((request, response) => {
    if (request.path === '/api/article') {
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify(article));
    }
    if (request.path === '/challenge') {
      blockedRequests++;
      response.writeHead(403, { 'content-type': 'text/html' });
      return void response.end(challengePage);
    }
    const html = pages[request.path];
    response.writeHead(html ? 200 : 404, { 'content-type': 'text/html' });
    response.end(html ?? 'not found');
  });
});

afterAll(async () => {
  await closeChromium();
  await web.close();
});

/** A browser stand-in that records what it was asked to read. */
function spyBrowser(outcome: (url: string) => Promise<Page>): PageReader & { calls: string[] } {
  const calls: string[] = [];
  return {
    specificationVersion: 'v1',
    id: 'browser',
    calls,
    read: (url) => {
      calls.push(url);
      return outcome(url);
    },
  };
}

const rendered = (url: string): Promise<Page> =>
  Promise.resolve({
    requestedUrl: url,
    url,
    title: 'Rendered',
    markdown: 'rendered',
    text: 'rendered',
    links: [],
    contentType: 'text/html',
  });

describe('auto reader', () => {
  const builtin = createBuiltinReader({ allowPrivateNetwork: true });

  it('reads normal pages with the builtin reader alone, never asking the browser', async () => {
    const browser = spyBrowser(rendered);
    const auto = createAutoReader({ builtin, browser });
    for (const path of ['/article', '/short']) {
      const page = await auto.read(`${web.url}${path}`);
      expect(page.text).not.toBe('rendered');
    }
    await expect(auto.read(`${web.url}/missing`)).rejects.toMatchObject({ code: 'page_http_error' });
    expect(browser.calls).toEqual([]);
  });

  it('asks the browser for app shells only, and keeps the shell when the browser fails', async () => {
    const browser = spyBrowser(rendered);
    const auto = createAutoReader({ builtin, browser });
    expect((await auto.read(`${web.url}/shell`)).text).toBe('rendered');
    expect(browser.calls).toEqual([`${web.url}/shell`]);
    const failing = createAutoReader({
      builtin,
      browser: spyBrowser(() =>
        Promise.reject(new ProviderError('Chromium failed', { providerId: 'browser-reader' })),
      ),
    });
    const shell = await failing.read(`${web.url}/shell`);
    expect(shell.emptyShell).toBe(true);
    const aborting = createAutoReader({
      builtin,
      browser: spyBrowser(() => Promise.reject(new AbortedError())),
    });
    await expect(aborting.read(`${web.url}/shell`)).rejects.toBeInstanceOf(AbortedError);
    // Without Chromium, a shell is what there is.
    expect((await createAutoReader({ builtin }).read(`${web.url}/shell`)).emptyShell).toBe(true);
  });

  it('gives a page behind a bot check one try in the browser, fetched once (a challenge is not retried)', async () => {
    blockedRequests = 0;
    const browser = spyBrowser(rendered);
    expect((await createAutoReader({ builtin, browser }).read(`${web.url}/challenge`)).text).toBe('rendered');
    expect(browser.calls).toEqual([`${web.url}/challenge`]);
    expect(blockedRequests).toBe(1);
    // Chromium meets the same check: the page stays blocked, its challenge never the content.
    const stillBlocked = spyBrowser((url) =>
      rendered(url).then((page) => ({ ...page, title: 'Just a moment...', text: 'Verify you are human' })),
    );
    await expect(
      createAutoReader({ builtin, browser: stillBlocked }).read(`${web.url}/challenge`),
    ).rejects.toMatchObject({
      code: 'page_blocked_by_bot_check',
      message: expect.stringContaining('in Chromium too'),
    });
    expect(stillBlocked.calls).toHaveLength(1);
    // Without Chromium the builtin reader's refusal stands.
    await expect(createAutoReader({ builtin }).read(`${web.url}/challenge`)).rejects.toMatchObject({
      code: 'page_blocked_by_bot_check',
      statusCode: 403,
    });
  });
});

const chromium = findChromium(undefined);
const canRun = chromium.available || process.env.CI === 'true';

describe.skipIf(!canRun)('reader.provider auto (the default) with Chromium installed', () => {
  it('renders an app shell in the browser and fetches a normal page once', async () => {
    const config = loadConfig({ flags: { 'allow-private-network': true } });
    expect(config.reader.provider).toBe('auto');
    const reader = createPageReader(config.reader);
    web.requests.length = 0;
    const page = await reader.read(`${web.url}/fetching-shell`);
    expect(page.text).toContain(article.paragraphs[0]);
    // The builtin reader's fetch, then the browser's: the shell twice, and the data it fetched.
    const paths = web.requests.map((request) => request.path);
    expect(paths.filter((path) => path === '/fetching-shell')).toHaveLength(2);
    expect(paths).toContain('/api/article');
    web.requests.length = 0;
    const normal = await reader.read(`${web.url}/article`);
    expect(normal.text).toContain(prose[11]);
    expect(web.requests.map((request) => request.path)).toEqual(['/article']);
  });

  it('keeps to the builtin reader when the caller brings its own fetch (the browser could not use it)', async () => {
    const config = loadConfig({ flags: { 'allow-private-network': true } });
    const reader = createPageReader({ ...config.reader, fetch: globalThis.fetch });
    web.requests.length = 0;
    const page = await reader.read(`${web.url}/shell`);
    expect(page.emptyShell).toBe(true);
    expect(web.requests.map((request) => request.path)).toEqual(['/shell']);
  });
});

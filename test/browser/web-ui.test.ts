import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRunsApi, startFakeRunsApi } from '../../src/testing/fake-runs-api.js';
import { buildWebUi, canRunBrowser, launchChromium, openTab, shot } from './web-ui-browser.js';
import {
  ask,
  cancelOpenRun,
  expectFootnoteQuote,
  expectNothingRan,
  reopenFromHistory,
  signIn,
  signOut,
  waitForStatus,
} from './web-ui-flows.js';
import { parisQuote, scriptFor } from './web-ui-scripts.js';

// The page against a fake of the run API, whose scripted events cover what the real server rarely
// sends (a sentence-level quote, an odd budget); web-ui-real-server.test.ts runs the same flows
// (web-ui-flows.ts) against `deepsearch serve`.
let browser: Browser | undefined;
const servers: FakeRunsApi[] = [];
beforeAll(async () => {
  if (!canRunBrowser) return;
  buildWebUi();
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
});

async function startApi(apiKeys?: string[]): Promise<FakeRunsApi> {
  const api = await startFakeRunsApi({ script: scriptFor, apiKeys });
  servers.push(api);
  return api;
}

describe.runIf(canRunBrowser)('the web UI', () => {
  it('asks, fills the timeline, shows the answer with quotes on its footnotes, and reopens it from history', async () => {
    const api = await startApi();
    const { page, problems } = await openTab(browser!);
    await page.goto(`${api.url}/`);
    await expect(page.title()).resolves.toBe('deepsearch');
    await ask(page, 'What is the capital of France?');

    const timeline = page.locator('#timeline');
    await timeline.getByText('capital of France', { exact: true }).waitFor();
    await timeline.getByRole('link', { name: 'Paris - Encyclopedia' }).waitFor();
    // The failed read arrives just after the good one: wait for it, then check it is there once.
    await timeline.getByText('HTTP 404').waitFor();
    await expect(timeline.getByText('HTTP 404').count()).resolves.toBe(1);
    // Thinking is collapsed behind its summary line.
    const thinking = timeline.locator('details', { hasText: 'chose search' });
    await expect(thinking.evaluate((node) => (node as HTMLDetailsElement).open)).resolves.toBe(false);
    await thinking.locator('summary').click();
    await expect(thinking.locator('pre').textContent()).resolves.toBe(
      'I should look up the capital of France.',
    );

    await page.locator('#run-status[data-status="completed"]').waitFor();
    await expect(page.locator('#gauge-text').textContent()).resolves.toBe('61k of 200k tokens · step 3 of 8');
    await expect(page.locator('#answer-body').textContent()).resolves.toContain(
      'Paris is the capital of France.',
    );
    await expect(page.locator('#answer-confidence').textContent()).resolves.toContain('Confidence: high');
    const cards = page.locator('.source-card');
    await expect(cards.count()).resolves.toBe(2);
    await expect(cards.nth(1).textContent()).resolves.toContain('stats.example.net');

    // Hover shows the verified quote and its link; leaving hides it; a click pins it; Escape closes.
    const marker = page.locator('#answer-body button.fn[data-ref="1"]');
    const popover = await expectFootnoteQuote(page, {
      ref: 1,
      quote: parisQuote,
      href: 'https://en.example.org/wiki/Paris',
    });
    await expect(popover.locator('blockquote').textContent()).resolves.toBe(parisQuote);
    await shot(page, 'answer-desktop-light');
    await page.mouse.move(5, 5);
    await popover.waitFor({ state: 'hidden' });
    await page.locator('#answer-body button.fn[data-ref="2"]').click();
    await page.mouse.move(5, 5);
    await expect(popover.isVisible()).resolves.toBe(true);
    await expect(popover.textContent()).resolves.toContain('closest matching sentence');
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'hidden' });

    // Keyboard: focus on a marker shows its quote, Escape hides it and leaves focus on the marker.
    await marker.focus();
    await popover.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'hidden' });
    await expect(marker.evaluate((node) => node === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('/');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('question');

    // The request carried the question and no settings (server defaults).
    const created = api.requests.find((request) => request.method === 'POST');
    expect(created?.body).toEqual({ question: 'What is the capital of France?', mode: 'search' });

    // History: the run is listed; a fresh page reopens it with its whole timeline replayed.
    const { page: second } = await reopenFromHistory(browser!, {
      url: api.url,
      listed: 'capital of France',
      watched: page,
      colorScheme: 'dark',
    });
    await second.locator('#timeline').getByRole('link', { name: 'Paris - Encyclopedia' }).waitFor();
    await expect(second.locator('.source-card').count()).resolves.toBe(2);
    await shot(second, 'answer-desktop-dark');
    // Deleting a finished run removes it from the server and from the history.
    second.once('dialog', (dialog) => void dialog.accept());
    await second.getByRole('button', { name: 'Delete this run' }).click();
    await second.locator('#history-empty').waitFor();
    expect(api.runs.size).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);

  it('cancels a running run', async () => {
    const api = await startApi();
    const { page, problems } = await openTab(browser!, { width: 390, height: 844 });
    await page.goto(`${api.url}/`);
    await ask(page, 'hold: a question that takes long');
    await page.locator('#timeline').getByText('a slow query').waitFor();
    await shot(page, 'running-mobile-light');
    await cancelOpenRun(page);
    expect([...api.runs.values()][0]?.status).toBe('cancelled');
    expect(api.requests.some((request) => request.method === 'DELETE')).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);

  it('renders a research report with persona lines, and sends the settings as request options', async () => {
    const api = await startApi();
    const { page, problems } = await openTab(browser!, { width: 390, height: 844, colorScheme: 'dark' });
    await page.goto(`${api.url}/`);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Thorough (high)').check();
    await page.getByLabel('Search provider').fill('brave');
    await page.getByLabel('Only these hosts').fill('history.example.org, https://www.archive.example/x');
    await page.getByRole('button', { name: 'Save' }).click();
    await ask(page, 'History of Paris', 'research');
    await page.locator('#run-status[data-status="completed"]').waitFor();
    await page.locator('#timeline').getByText('Librarian · Origins: Found 4 sources.').waitFor();
    await expect(page.locator('#answer-body h1').textContent()).resolves.toBe('The history of Paris');
    const timeline = page.locator('#timeline');
    await expect(timeline.getByText('Plan: The history of Paris (2 sections)').count()).resolves.toBe(1);
    await expect(timeline.getByText('Section question: How did Paris begin?').count()).resolves.toBe(1);
    await expect(timeline.getByText('origins of Paris').count()).resolves.toBe(1);
    await expect(
      timeline.getByText('Fact check: 5 of 6 claims supported, 1 revised, 0 removed').count(),
    ).resolves.toBe(1);
    // The report's own footnote definitions are not shown twice: the sources are the cards.
    await expect(page.locator('#answer-body').textContent()).resolves.not.toContain('[^1]:');
    await page.locator('#answer-body button.fn[data-ref="1"]').click();
    await expect(page.locator('#popover blockquote').textContent()).resolves.toBe(
      'The city began on the Île de la Cité.',
    );
    await shot(page, 'research-mobile-dark');
    const created = api.requests.find((request) => request.method === 'POST');
    expect(created?.body).toEqual({
      question: 'History of Paris',
      mode: 'research',
      reasoning_effort: 'high',
      search_provider: 'brave',
      only_hostnames: ['history.example.org', 'www.archive.example'],
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it('renders markup from pages and answers as text: no script runs', async () => {
    const api = await startApi();
    const { page, problems } = await openTab(browser!);
    await page.goto(`${api.url}/`);
    await ask(page, 'hostile: what does this page say?');
    await page.locator('#run-status[data-status="completed"]').waitFor();
    await page.locator('#answer-body button.fn[data-ref="1"]').click();
    await expect(page.locator('#popover blockquote').textContent()).resolves.toContain(
      '<script>window.__xss="quote"</script>',
    );
    await expect(page.locator('#timeline').textContent()).resolves.toContain(
      '<img src=x onerror="window.__xss=\'read-title\'">',
    );
    await expect(page.locator('#answer-body').textContent()).resolves.toContain('Hostile text');
    await expectNothingRan(page);
    await expect(page.evaluate(() => (window as { __xss?: unknown }).__xss)).resolves.toBeUndefined();
    await shot(page, 'hostile-desktop-light');
    expect(problems).toEqual([]);
  }, 120_000);

  it('asks for the API key when the server needs one, and sends it only as a Bearer header', async () => {
    const key = 'sk-web-ui-test-0123456789';
    const api = await startApi([key]);
    const { page, problems } = await openTab(browser!);
    await signIn(page, {
      url: api.url,
      wrongKey: 'sk-wrong',
      key,
      refusal: 'invalid API key',
      onState: async (state) => {
        if (state === 'asked') await shot(page, 'login-desktop-light');
      },
    });
    await ask(page, 'What is the capital of France?');
    await waitForStatus(page, 'completed');
    await expect(page.evaluate(() => localStorage.getItem('deepsearch.apiKey'))).resolves.toBe(key);
    const apiCalls = api.requests.filter((request) => request.path.startsWith('/v1/'));
    expect(
      apiCalls.some(
        (request) => request.path.endsWith('/events') && request.authorization === `Bearer ${key}`,
      ),
    ).toBe(true);
    expect(apiCalls.filter((request) => request.url.includes(key))).toEqual([]);
    // Signing out forgets the key and asks again.
    await signOut(page);
    expect(problems).toEqual([]);
  }, 120_000);
});

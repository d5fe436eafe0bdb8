import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../src/scale/postgres/postgres-database.js';
import {
  needServices,
  type PostgresService,
  type RunningService,
  startPostgres,
  startRedis,
} from '../helpers/scale-services.js';
import { buildWebUi, canRunBrowser, launchChromium, openTab, shot } from './web-ui-browser.js';
import {
  ask,
  cancelOpenRun,
  expectFootnoteQuote,
  reopenFromHistory,
  resumeOpenRun,
  waitForStatus,
} from './web-ui-flows.js';
import {
  type RealWorld,
  realQuestions,
  realQuotes,
  realTitles,
  startRealWorld,
} from './web-ui-real-world.js';

// The page against a queue-mode API node (`deepsearch serve` from dist/ with Redis and Postgres)
// and one `deepsearch worker`, with the fake LLM, SearXNG and web on 127.0.0.1: the node runs
// nothing itself; the page sees the worker's progress streamed back, the answer, and the run in
// its history, read from Postgres. Screenshots: .artifacts/web-ui/queue-*.png.
const available = canRunBrowser && needServices('redis', 'postgres');
let browser: Browser | undefined;
let redis: RunningService | undefined;
let postgres: PostgresService | undefined;
let world: RealWorld | undefined;
let databaseUrl: string;

beforeAll(async () => {
  if (!available) return;
  buildWebUi();
  [browser, redis, postgres] = await Promise.all([launchChromium(), startRedis(), startPostgres()]);
  databaseUrl = await postgres.createDatabase();
  world = await startRealWorld({ queue: { redisUrl: redis.url, databaseUrl } });
}, 120_000);

afterAll(async () => {
  await world?.close();
  await Promise.all([browser?.close(), redis?.stop(), postgres?.stop()]);
});

describe.runIf(available)('the web UI on a queue-mode API node with a worker', () => {
  it('streams the worker’s progress, shows the cited answer, and lists the run in history', async () => {
    const { page, problems } = await openTab(browser!);
    await page.goto(`${world!.url}/`);
    await page.locator('#history-empty').waitFor();
    await ask(page, realQuestions.paris);
    // Progress arrives while the run is going: the searches, then the pages read.
    const timeline = page.locator('#timeline');
    await timeline.getByText('capital of France', { exact: true }).first().waitFor();
    await waitForStatus(page, 'completed');
    await shot(page, 'queue-answer-desktop-light');
    for (const title of [realTitles.paris, realTitles.population])
      await timeline.locator('li[data-kind="read"][data-tone="ok"]', { hasText: title }).first().waitFor();
    await expect(page.locator('#answer-body p').textContent()).resolves.toBe(
      'Paris is the capital of France.1 About 2.1 million people live in the city itself.2',
    );
    await expectFootnoteQuote(page, {
      ref: 1,
      quote: realQuotes.paris.replace(/\.$/, ''),
      href: `${world!.web.url}/wiki/Paris`,
    });
    // A worker claimed and ran it (attempt 1; the API node claims nothing), recorded in Postgres.
    const runId = decodeURIComponent(new URL(page.url()).hash.replace('#/runs/', ''));
    const database = createPostgresDatabase({ url: databaseUrl });
    try {
      const { rows } = await database.query('SELECT attempt, status FROM runs WHERE id = $1', [runId]);
      expect(rows).toEqual([{ attempt: 1, status: 'completed' }]);
    } finally {
      await database.close();
    }
    // A fresh tab (another visit) finds the run in the history and reopens it whole.
    const again = await reopenFromHistory(browser!, {
      url: world!.url,
      listed: 'capital of France',
      watched: page,
      onList: (tab) => shot(tab, 'queue-history-list-desktop-light'),
    });
    await expect(again.page.locator('#answer-body').textContent()).resolves.toContain(
      'Paris is the capital of France.',
    );
    await shot(again.page, 'queue-history-desktop-light');
    expect(problems).toEqual([]);
    expect(again.problems).toEqual([]);
    expect(world!.llm.problems).toEqual([]);
  }, 90_000);

  it('cancels a run on its worker from the page, and resumes it there once the model answers', async () => {
    const { page, problems } = await openTab(browser!, { width: 390, height: 844 });
    await page.goto(`${world!.url}/`);
    await ask(page, realQuestions.hang);
    const timeline = page.locator('#timeline');
    // The worker's live progress, relayed by the API node while the model keeps it waiting.
    await timeline.getByText('a slow query', { exact: true }).first().waitFor();
    await timeline.locator('li[data-kind="step"]', { hasText: 'Step 2' }).waitFor();
    await shot(page, 'queue-running-mobile-light');
    await cancelOpenRun(page);
    await page.locator('#run-error', { hasText: 'The run was cancelled.' }).waitFor();
    const calls = world!.llm.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Stopped on the worker: no LLM call after the cancel.
    expect(world!.llm.requests.length).toBe(calls);
    world!.answerHang();
    await resumeOpenRun(page);
    await waitForStatus(page, 'completed');
    await expect(page.locator('#answer-body p').textContent()).resolves.toBe(
      'It got one after all, once the model answered.1',
    );
    for (const step of ['Step 1', 'Step 2', 'Step 3'])
      await expect(timeline.locator('li[data-kind="step"]', { hasText: step }).count()).resolves.toBe(1);
    await shot(page, 'queue-resumed-mobile-light');
    expect(problems).toEqual([]);
  }, 90_000);
});

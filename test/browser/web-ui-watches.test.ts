import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WatchDetailObject, WatchObject } from '../../src/events/watch-api.js';
import { type BuiltServer, serveBuiltCli } from '../helpers/serve-built-cli.js';
import { startWatchWorld, type WatchWorld, watchQuestion } from '../helpers/watch-world.js';
import { buildWebUi, canRunBrowser, launchChromium, openTab, shot, shotEach } from './web-ui-browser.js';

// The Watches view against `deepsearch serve` from dist/ (npm run build first): a watch checked
// twice over a local page whose length changed between the checks. Screenshots:
// .artifacts/web-ui/watch-*.png.
let browser: Browser | undefined;
let world: WatchWorld | undefined;
let server: BuiltServer | undefined;
beforeAll(async () => {
  if (!canRunBrowser) return;
  buildWebUi();
  browser = await launchChromium();
  world = await startWatchWorld();
  // The server's own timer stays out of the way (a new watch is due at once): every check here is asked for.
  server = await serveBuiltCli({ ...world.env, DEEPSEARCH_WATCH_CHECK_MS: '3600000' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await world?.close();
  await browser?.close();
});

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server!.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Starts a check through the API and waits until it is stored. */
async function checkNow(id: string, count: number): Promise<WatchDetailObject> {
  expect((await api('POST', `/v1/watches/${id}/run`, {})).status).toBe(202);
  const end = Date.now() + 60_000;
  for (;;) {
    const { body } = await api<WatchDetailObject>('GET', `/v1/watches/${id}`);
    if (body.runs.length >= count) return body;
    if (Date.now() > end) throw new Error(`the check did not finish: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(!canRunBrowser)('the Watches view (Chromium, real server)', () => {
  it('shows the latest answer with the changed claim highlighted, both sides with sources, and pause, add, remove', async () => {
    const created = await api<WatchObject>('POST', '/v1/watches', {
      question: watchQuestion,
      every: '1d',
      name: 'Orlin Bridge',
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    world!.phase = 0;
    await checkNow(id, 1);
    world!.phase = 1;
    const detail = await checkNow(id, 2);
    expect(detail.runs.map((run) => run.status)).toEqual(['ok', 'ok']);

    const { page, problems } = await openTab(browser!);
    await page.goto(`${server!.url}/#/watches/${id}`);
    const changed = page.locator('#watch-answer .watch-changed');
    await changed.waitFor();
    // The sentence itself, not its paragraph (the answer is one paragraph of three claims).
    expect(await changed.count()).toBe(1);
    expect(await changed.textContent()).toBe('The Orlin Bridge is 436 metres long');
    expect(await changed.getAttribute('title')).toBe('Changed: number: 412 → 436');
    expect(await page.locator('#watch-answer .watch-new').count()).toBe(0);
    expect(await page.locator('#watch-title').textContent()).toBe('Orlin Bridge');
    expect(await page.locator('#watch-summary').textContent()).toBe('Since the previous check: 1 changed.');
    expect(await page.locator('#ask').isHidden()).toBe(true);

    const change = page.locator('#watch-changes > li.change-changed');
    expect(await change.count()).toBe(1);
    expect(await change.locator('del').textContent()).toBe('The Orlin Bridge is 412 metres long.');
    expect(await change.locator('ins').textContent()).toBe('The Orlin Bridge is 436 metres long.');
    expect(await change.locator('.change-differences').textContent()).toBe('number: 412 → 436');
    // Each side's source: the page, and the quote read from it then and now.
    expect(await change.locator('.change-before q').textContent()).toBe(
      'The Orlin Bridge is 412 metres long',
    );
    expect(await change.locator('.change-after q').textContent()).toBe('The Orlin Bridge is 436 metres long');
    expect(await change.locator('.change-after a').getAttribute('href')).toBe(world!.pageUrl);
    expect(await page.locator('#watch-history > li').count()).toBe(2);
    await shotEach(page, 'watch-changed');
    // Nothing wider than a phone's screen (the bar's links included).
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Pause: the schedule line says so and the button offers to resume; the server agrees.
    await page.locator('#watch-pause').click();
    await page.locator('#watch-pause', { hasText: 'Resume' }).waitFor();
    expect(await page.locator('#watch-meta').textContent()).toContain('paused');
    expect((await api<WatchObject>('GET', `/v1/watches/${id}`)).body.paused).toBe(true);

    // The list, and a watch added from the form; a schedule under a minute is refused in words.
    await page.goto(`${server!.url}/#/watches`);
    await page.locator('#watch-list li', { hasText: 'Orlin Bridge' }).waitFor();
    await page.locator('#watch-new-question').fill('Who runs the Orlin Bridge?');
    await page.locator('#watch-every').fill('10s');
    await page.locator('#watch-add').click();
    await page.locator('#watch-error:not([hidden])').waitFor();
    expect(await page.locator('#watch-error').textContent()).toMatch(/at least 1 minute/);
    await page.locator('#watch-every').fill('6h');
    await page.locator('#watch-add').click();
    await page.locator('#watch-summary', { hasText: 'Not checked yet.' }).waitFor();
    expect(await page.locator('#watch-meta').textContent()).toContain('every 6h');
    await shot(page, 'watch-new');

    // Remove (after the confirm): back to the list, without it.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('#watch-remove').click();
    await page.waitForURL(/#\/watches$/);
    await page.locator('#watch-list li', { hasText: 'Orlin Bridge' }).waitFor();
    expect(await page.locator('#watch-list li').count()).toBe(1);
    // The one refused request is the 10s schedule's (Chromium logs every 4xx); nothing else went wrong.
    expect(problems).toEqual([
      'Failed to load resource: the server responded with a status of 400 (Bad Request)',
    ]);
  }, 180_000);
});

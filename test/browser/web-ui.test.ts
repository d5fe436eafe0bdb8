import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeRunsApi, startFakeRunsApi } from '../helpers/fake-runs-api.js';
import { buildWebUi, canRunBrowser, launchChromium, openTab, shot, shotEach } from './web-ui-browser.js';
import {
  ask,
  cancelOpenRun,
  expectFailureThenRetry,
  expectFootnoteQuote,
  expectNothingRan,
  exportFile,
  openEvidenceFromReport,
  outlineStates,
  reopenFromHistory,
  researchWithOutline,
  sectionSteps,
  signIn,
  signOut,
  waitForStatus,
} from './web-ui-flows.js';
import { parisPlan, parisQuote, scriptFor } from './web-ui-scripts.js';

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

async function startApi(apiKeys?: string[], plan: typeof parisPlan = parisPlan): Promise<FakeRunsApi> {
  const api = await startFakeRunsApi({
    script: scriptFor,
    apiKeys,
    outline: () => ({ plan, estimate: { tokens: 120_000, timeMs: 180_000, llmCalls: 24 } }),
    pdf: true,
  });
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
    // Elapsed is the run's own duration, not the wall clock since it was created (which, for a
    // resumed run, counted the idle gap before Resume).
    await expect(page.locator('#run-elapsed').textContent()).resolves.toBe('1m 23s');
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
    await expect(second.locator('#run-elapsed').textContent()).resolves.toBe('1m 23s');
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

  it('renders a research report as an outline of sections with their steps, and sends the settings as request options', async () => {
    const api = await startApi();
    const { page, problems } = await openTab(browser!, { width: 390, height: 844, colorScheme: 'dark' });
    await page.goto(`${api.url}/`);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Thorough (high)').check();
    await page.getByLabel('Search provider').fill('brave');
    await page.getByLabel('Only these hosts').fill('history.example.org, https://www.archive.example/x');
    await page.getByRole('button', { name: 'Save' }).click();
    await ask(page, 'History of Paris', 'research');
    await waitForStatus(page, 'completed');
    await expect(page.locator('#answer-body h1').textContent()).resolves.toBe('The history of Paris');
    // The plan is an outline; each section's state, its steps folded under it.
    await expect(outlineStates(page)).resolves.toEqual([
      ['Origins', 'written · covered 2 of 2 · 1 source'],
      ['Modern era', 'written · covered 2 of 2 · 1 source'],
    ]);
    await expect(page.locator('#outline-s2 .section-questions').textContent()).resolves.toContain(
      'Fact needed: population of Paris in 2020',
    );
    const origins = await sectionSteps(page, 'Origins');
    expect(origins).toContain('Hop 1: Origins (History of Paris)');
    expect(origins).toContain('Hop 2: Origins (History of Paris)');
    expect(origins).toContain('origins of Paris (hop 2)');
    expect(origins).toContain('Search Agent · Origins: hop 2: searching 2 question(s) of "Origins"');
    expect(origins).not.toContain('modern era of Paris');
    // The run's own timeline keeps what is not a section's: the plan, the writing, the fact-check.
    const timeline = page.locator('#timeline');
    await expect(timeline.getByText('Plan: The history of Paris (2 sections)').count()).resolves.toBe(1);
    await expect(
      timeline.getByText('Fact check: 5 of 6 claims supported, 1 revised, 0 removed').count(),
    ).resolves.toBe(1);
    await expect(timeline.getByText('origins of Paris').count()).resolves.toBe(0);
    // The gauge is the report's budget, not a section's step share.
    await expect(page.locator('#gauge-text').textContent()).resolves.toBe('23k of 400k tokens');
    // The report's own footnote definitions are not shown twice: the sources are the cards.
    await expect(page.locator('#answer-body').textContent()).resolves.not.toContain('[^1]:');
    await page.locator('#answer-body button.fn[data-ref="1"]').first().click();
    await expect(page.locator('#popover blockquote').textContent()).resolves.toBe(
      'The city began on the Île de la Cité.',
    );
    await page.keyboard.press('Escape');
    await shotEach(page, 'research');
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

  it('reviews and edits the outline before research, leads from the report to its evidence, starts follow-ups, exports', async () => {
    // Three questions, long enough to wrap: the box used to have one row per question and cut the third.
    const origins = {
      ...parisPlan.sections[0]!,
      questions: [
        ...parisPlan.sections[0]!.questions,
        'Which tribes and traders lived on the islands of the Seine before the Romans founded Lutetia, and how do we know?',
      ],
    };
    const api = await startApi(undefined, { ...parisPlan, sections: [origins, parisPlan.sections[1]!] });
    const { page, problems } = await openTab(browser!);
    await page.goto(`${api.url}/`);
    await researchWithOutline(page, 'History of Paris', {
      onEditor: async (tab) => {
        await expect(tab.getByLabel('Report title').inputValue()).resolves.toBe('The history of Paris');
        await expect(tab.locator('#outline-estimate').textContent()).resolves.toBe(
          'Estimated: ~120k tokens, ~3 min, ~24 LLM calls.',
        );
        await expect(
          tab.getByLabel('Section 2 facts the report needs, one per line').inputValue(),
        ).resolves.toBe('population of Paris in 2020');
        // Every question box shows all its text: nothing hidden below its edge.
        const questions = tab.getByLabel('Section 1 questions, one per line');
        await expect(questions.inputValue()).resolves.toContain('how do we know?');
        const overflow = () => questions.evaluate((box) => box.scrollHeight - box.clientHeight);
        await expect(overflow()).resolves.toBeLessThanOrEqual(1);
        await shotEach(tab, 'outline-editor');
        // Also once a narrow window wraps it onto more lines (the screenshots' phone size).
        const size = tab.viewportSize()!;
        await tab.setViewportSize({ width: 390, height: 844 });
        await expect.poll(overflow).toBeLessThanOrEqual(1);
        await tab.setViewportSize(size);
      },
      edit: async (tab) => {
        await tab.getByLabel('Report title').fill('Paris through the ages');
        // An empty section is refused on the page, naming it.
        await tab.getByRole('button', { name: 'Add a section' }).click();
        await tab.getByRole('button', { name: 'Start research' }).click();
        await expect(tab.locator('#outline-error').textContent()).resolves.toBe('Section 3 needs a heading.');
        await tab.getByLabel('Section 3 heading').fill('Food');
        await tab
          .getByLabel('Section 3 questions, one per line')
          .fill('- What do Parisians eat?\n\nWhere are the markets?');
        await tab.locator('#outline-sections > li').nth(2).getByRole('button', { name: 'Move up' }).click();
        await tab.locator('#outline-sections > li').nth(0).getByRole('button', { name: 'Remove' }).click();
      },
    });
    const created = api.requests.find(
      (request) => request.method === 'POST' && request.path === '/v1/research',
    );
    expect(created?.body).toMatchObject({
      question: 'History of Paris',
      mode: 'research',
      outline: {
        title: 'Paris through the ages',
        sections: [
          { id: 'new-1', heading: 'Food', questions: ['What do Parisians eat?', 'Where are the markets?'] },
          { id: 's2', heading: 'Modern era', questions: ['What is Paris today?'] },
        ],
        dataPoints: [{ description: 'population of Paris in 2020', strategy: 'web-search', sectionId: 's2' }],
      },
    });
    expect(api.requests.filter((request) => request.path === '/v1/research/outline')).toHaveLength(1);
    await waitForStatus(page, 'completed');
    await expect(outlineStates(page)).resolves.toEqual([
      ['Food', 'written · covered 2 of 2 · 1 source'],
      ['Modern era', 'written · covered 2 of 2 · 1 source'],
    ]);
    const evidence = await openEvidenceFromReport(page, 'Modern era');
    expect(evidence).toContain('Evidence: 2 of 2 covered');
    expect(evidence).toContain('population of Paris in 2020');
    expect(evidence).toContain('What is Paris today?');
    expect(evidence).toContain('The city began on the Île de la Cité.');
    await shotEach(page, 'research-evidence');
    // Exports: the server's HTML and PDF of the report, beside the page's own Markdown.
    await expect(exportFile(page, 'Export HTML')).resolves.toMatchObject({
      name: 'paris-through-the-ages.html',
    });
    const pdf = await exportFile(page, 'Export PDF');
    expect(pdf).toMatchObject({ name: 'paris-through-the-ages.pdf' });
    expect(pdf.text.startsWith('%PDF-')).toBe(true);
    // The page's Markdown is the report as shown: its own title and footnote definition, once each.
    const markdown = (await exportFile(page, 'Export Markdown')).text;
    expect(markdown.startsWith('# Paris through the ages\n')).toBe(true);
    expect(markdown.match(/^# /gm)).toHaveLength(1);
    expect(markdown.match(/^\[\^1\]:/gm)).toHaveLength(1);
    // The HTML and PDF are named by the report's title as edited; so are the page's Markdown and JSON.
    await expect(exportFile(page, 'Export Markdown')).resolves.toMatchObject({
      name: 'paris-through-the-ages.md',
    });
    await expect(exportFile(page, 'Export JSON')).resolves.toMatchObject({
      name: 'paris-through-the-ages.json',
    });
    // A follow-up question starts a new run as the page is set to: "Research report" is still
    // selected, so it is researched (it used to start an Answer run).
    const before = api.runs.size;
    await page.getByRole('button', { name: 'How did the Seine shape the city?', exact: true }).click();
    await expect.poll(() => api.runs.size, { timeout: 10_000 }).toBe(before + 1);
    expect([...api.runs.values()].at(-1)!.body).toMatchObject({
      question: 'How did the Seine shape the city?',
      mode: 'research',
    });
    // The new run opens (its question in the heading), then runs to its end.
    await page.locator('#run-question', { hasText: 'How did the Seine shape the city?' }).waitFor();
    await waitForStatus(page, 'completed');
    await page.goBack();
    await page.locator('#run-question', { hasText: 'History of Paris' }).waitFor();
    await waitForStatus(page, 'completed');
    // With Answer selected, the question is answered; its Research link researches it whatever is selected.
    await page.getByLabel('Answer', { exact: true }).check();
    await page.getByRole('button', { name: 'When did Paris become the capital?', exact: true }).click();
    await expect.poll(() => api.runs.size, { timeout: 10_000 }).toBe(before + 2);
    expect([...api.runs.values()].at(-1)!.body).toEqual({
      question: 'When did Paris become the capital?',
      mode: 'search',
    });
    await page.locator('#run-question', { hasText: 'When did Paris become the capital?' }).waitFor();
    await waitForStatus(page, 'completed');
    await page.goBack();
    await page.locator('#run-question', { hasText: 'History of Paris' }).waitFor();
    await waitForStatus(page, 'completed');
    await page.getByRole('button', { name: 'Research: When did Paris become the capital?' }).click();
    await expect.poll(() => api.runs.size, { timeout: 10_000 }).toBe(before + 3);
    expect([...api.runs.values()].at(-1)!.body).toMatchObject({
      question: 'When did Paris become the capital?',
      mode: 'research',
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it('shows each section live: queued or searching hop n, covered k of m, and stopped when cancelled', async () => {
    const api = await startApi();
    const { page, problems } = await openTab(browser!, { colorScheme: 'dark' });
    await page.goto(`${api.url}/`);
    await ask(page, 'hold research: History of Paris', 'research');
    await expect
      .poll(() => outlineStates(page), { timeout: 15_000 })
      .toEqual([
        ['Origins', 'covered 1 of 2 · searching hop 2'],
        ['Modern era', 'covered 2 of 2 · 1 source'],
        ['Food', 'queued'],
      ]);
    await expect(page.locator('#gauge-text').textContent()).resolves.toMatch(/^[\d.]+k tokens used$/);
    // A queued section has no steps to unfold yet; a searching one has.
    const stepsFold = (heading: string) =>
      page.locator('#outline-list > li', { hasText: heading }).locator('details.section-steps');
    await expect(stepsFold('Food').isVisible()).resolves.toBe(false);
    await expect(stepsFold('Origins').isVisible()).resolves.toBe(true);
    await shotEach(page, 'research-running');
    await cancelOpenRun(page);
    // Cancel's answer marks the run at once; the sections stop with the run's end, which follows.
    await expect
      .poll(() => outlineStates(page), { timeout: 10_000 })
      .toEqual([
        ['Origins', 'stopped · covered 1 of 2'],
        ['Modern era', 'covered 2 of 2 · 1 source'],
        ['Food', 'stopped'],
      ]);
    await shotEach(page, 'research-stopped');
    expect(problems).toEqual([]);
  }, 120_000);

  it('says what failed when the LLM is down, with Retry and no Copy or Export', async () => {
    const api = await startApi();
    const { page, problems } = await openTab(browser!, { width: 390, height: 844 });
    await page.goto(`${api.url}/`);
    await ask(page, 'down: what is the capital of France?');
    await expectFailureThenRetry(
      page,
      'The LLM server (openai-compatible) could not be reached: connection refused (ECONNREFUSED)',
      () => shotEach(page, 'llm-down'),
    );
    const posts = api.requests.filter((request) => request.method === 'POST');
    expect(posts.map((request) => request.body)).toEqual([
      { question: 'down: what is the capital of France?', mode: 'search' },
      { question: 'down: what is the capital of France?', mode: 'search' },
    ]);
    // The retried run ran and failed as well (the LLM is still down).
    await expect
      .poll(() => [...api.runs.values()].map((run) => run.status), { timeout: 10_000 })
      .toEqual(['failed', 'failed']);
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

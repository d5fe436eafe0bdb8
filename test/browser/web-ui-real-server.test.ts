import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatTokens } from '../../src/web/dom.js';
import { researchTopic } from '../helpers/research-fake-llm.js';
import {
  buildWebUi,
  canRunBrowser,
  launchChromium,
  openTab,
  screenshotDir,
  shot,
  shotEach,
} from './web-ui-browser.js';
import {
  addOutlineSection,
  ask,
  cancelOpenRun,
  chooseSearchProvider,
  expectFailureThenRetry,
  expectFootnoteQuote,
  expectNothingRan,
  exportFile,
  openEvidenceFromReport,
  outlineStates,
  reopenFromHistory,
  researchWithOutline,
  resumeOpenRun,
  sectionSteps,
  signIn,
  signOut,
  waitForStatus,
} from './web-ui-flows.js';
import {
  type RealWorld,
  realQuestions,
  realQuotes,
  realTitles,
  startRealWorld,
} from './web-ui-real-world.js';

// The page against `deepsearch serve` from dist/ (npm run build first), with a fake LLM, fake
// SearXNG and fake web on 127.0.0.1. Screenshots: .artifacts/web-ui/real-*.png.
let browser: Browser | undefined;
let world: RealWorld | undefined;
beforeAll(async () => {
  if (!canRunBrowser) return;
  // The server serves dist/web: rebuild it so the page tested is the one in src/web.
  buildWebUi();
  browser = await launchChromium();
}, 60_000);
afterEach(async () => {
  await world?.close();
  world = undefined;
});
afterAll(async () => {
  await browser?.close();
});

/** Every URL the tab requested and the Authorization header it sent, to check where a key went. */
function recordRequests(page: Page) {
  const sent: Array<{ url: string; authorization: string | undefined }> = [];
  page.on('request', (request) =>
    sent.push({ url: request.url(), authorization: request.headers().authorization }),
  );
  return sent;
}

/** The run's state as the server has it, read through the API. */
async function serverRun(id: string, key?: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${world!.url}/v1/research/${id}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  return (await response.json()) as Record<string, unknown>;
}

/** The runs the server lists, newest first. */
async function serverRuns(): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${world!.url}/v1/runs`);
  return ((await response.json()) as { data: Array<Record<string, unknown>> }).data;
}

const openRunId = (page: Page) => decodeURIComponent(new URL(page.url()).hash.replace('#/runs/', ''));

describe.runIf(canRunBrowser)('the web UI on the real server', () => {
  it('shows searches and pages read, a cited answer whose footnote shows the verified quote, and reopens it from history', async () => {
    world = await startRealWorld();
    const { page, problems } = await openTab(browser!);
    await page.goto(`${world.url}/`);
    await page.locator('#history-empty').waitFor();
    await shot(page, 'real-empty-desktop-light');
    await ask(page, realQuestions.paris);
    await waitForStatus(page, 'completed');

    const timeline = page.locator('#timeline');
    for (const query of ['capital of France', 'Paris population'])
      await expect(timeline.getByText(query, { exact: true }).count()).resolves.toBeGreaterThan(0);
    const webHost = new URL(world.web.url).hostname;
    for (const title of [realTitles.paris, realTitles.population]) {
      const read = timeline.locator('li[data-kind="read"][data-tone="ok"]', { hasText: title });
      await expect(read.locator('.note').textContent()).resolves.toBe(webHost);
      await expect(read.getByRole('link', { name: title }).getAttribute('href')).resolves.toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\//,
      );
    }
    await expect(timeline.locator('li[data-kind="read"][data-tone="bad"] li').textContent()).resolves.toBe(
      `${webHost}/wiki/Lyonanswered HTTP 404`,
    );
    // The pages about to be read, all on one host, are told apart by their paths.
    await expect(
      timeline.locator('li[data-kind="read"]', { hasText: 'Reading 3 pages' }).locator('a').allTextContents(),
    ).resolves.toEqual([`${webHost}/wiki/Paris`, `${webHost}/stats/paris`, `${webHost}/wiki/Lyon`]);
    await expect(timeline.getByText('definitive check passed').count()).resolves.toBe(1);
    await expect(page.locator('#gauge-text').textContent()).resolves.toMatch(/tokens · step 3 of \d+$/);

    await expect(page.locator('#answer-body p').textContent()).resolves.toBe(
      'Paris is the capital of France.1 About 2.1 million people live in the city itself.2',
    );
    await expect(page.locator('#answer-confidence').textContent()).resolves.toContain('Confidence: high');
    // A run that ended with its answer (no budget stop) has nothing to resume.
    await expect(page.locator('#run-resume-box').isVisible()).resolves.toBe(false);
    await expect(serverRun(openRunId(page))).resolves.toMatchObject({ resumable: false });
    await expect(page.locator('.source-card').count()).resolves.toBe(2);
    const popover = await expectFootnoteQuote(page, {
      ref: 1,
      quote: realQuotes.paris.replace(/\.$/, ''),
      href: `${world.web.url}/wiki/Paris`,
    });
    await expect(popover.locator('#popover-host').textContent()).resolves.toBe(webHost);
    await shot(page, 'real-answer-desktop-light');
    // The timeline follows the run to its end; from its top it shows the searches with their queries.
    await timeline.evaluate((node) => node.scrollTo(0, 0));
    await timeline.screenshot({ path: `${screenshotDir}/real-timeline-top-desktop-light.png` });
    // Pinned by a click, the citation's link opens the page the quote came from.
    await page.locator('#answer-body button.fn[data-ref="1"]').click();
    await popover.waitFor({ state: 'visible' });
    const [opened] = await Promise.all([
      page.context().waitForEvent('page'),
      popover.getByRole('link', { name: realTitles.paris }).click(),
    ]);
    await opened.waitForLoadState();
    await expect(opened.title()).resolves.toBe(realTitles.paris);
    await opened.close();
    // Escape from the popover's link closes it for good, focus back on its marker.
    await popover.getByRole('link').focus();
    await page.keyboard.press('Escape');
    await popover.waitFor({ state: 'hidden' });
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-ref'))).resolves.toBe('1');
    await page.waitForTimeout(100);
    await expect(popover.isVisible()).resolves.toBe(false);
    // Hovered (not pinned), the quote stays while the pointer crosses the gap to its link.
    await expectFootnoteQuote(page, {
      ref: 2,
      quote: realQuotes.population.replace(/\.$/, ''),
      href: `${world.web.url}/stats/paris`,
    });
    const target = (await popover.getByRole('link').boundingBox())!;
    await page.mouse.move(target.x + 10, target.y + target.height / 2, { steps: 5 });
    await expect(popover.isVisible()).resolves.toBe(true);

    // The history searches the server's run store.
    const search = page.getByLabel('Search past runs');
    await search.fill('zebra crossings');
    await page.locator('#history-empty', { hasText: 'No run matches.' }).waitFor();
    await search.fill('2.1 million');
    await page.locator('#history-list button', { hasText: 'capital of France' }).waitFor();
    await expect(page.locator('#history-list button').count()).resolves.toBe(1);

    // History, on a phone in the dark: the run is listed and reopens with its whole timeline.
    const again = await reopenFromHistory(browser!, {
      url: world.url,
      listed: 'capital of France',
      watched: page,
      colorScheme: 'dark',
      width: 390,
      height: 844,
      onList: async (tab) => {
        // The open list takes its own height, the question right below it.
        const list = (await tab.locator('#history-list').boundingBox())!;
        const ask = (await tab.getByLabel('Your question').boundingBox())!;
        expect(ask.y - (list.y + list.height)).toBeLessThan(60);
        await shot(tab, 'real-history-list-mobile-dark');
      },
    });
    await expect(again.page.locator('#answer-body').textContent()).resolves.toContain(
      'Paris is the capital of France.',
    );
    await shot(again.page, 'real-history-mobile-dark');
    expect(problems).toEqual([]);
    expect(again.problems).toEqual([]);
    expect(world.llm.problems).toEqual([]);
  }, 60_000);

  it('cancels a run whose model does not answer, then resumes it once the model answers', async () => {
    world = await startRealWorld();
    const { page, problems } = await openTab(browser!, { width: 390, height: 844 });
    await page.goto(`${world.url}/`);
    await ask(page, realQuestions.hang);
    const timeline = page.locator('#timeline');
    await timeline.getByText('a slow query', { exact: true }).first().waitFor();
    await timeline.locator('li[data-kind="step"]', { hasText: 'Step 2' }).waitFor();
    // The step the model does not answer says it waits for it; step 1, answered, no longer does.
    const waitingNote = timeline.locator('.waiting');
    await expect(
      timeline.locator('li[data-kind="step"]', { hasText: 'Step 2' }).locator('.waiting').textContent(),
    ).resolves.toBe('waiting for the model…');
    await expect(waitingNote.count()).resolves.toBe(1);
    await shot(page, 'real-running-mobile-light');
    await cancelOpenRun(page);
    await expect(waitingNote.count()).resolves.toBe(0);
    // Cancel's answer marks the run at once; the message comes with the run's end.
    await page.locator('#run-error', { hasText: 'The run was cancelled.' }).waitFor();
    await expect(page.locator('#run-error').textContent()).resolves.toBe('The run was cancelled.');
    await shot(page, 'real-cancelled-mobile-light');
    const id = openRunId(page);
    await expect(serverRun(id)).resolves.toMatchObject({ status: 'cancelled', resumable: true });

    // The model answers now: Resume goes on with the same run from its checkpoint, with a larger budget.
    world.answerHang();
    const before = await timeline.locator(':scope > li').allTextContents();
    await resumeOpenRun(page, { budget: 'Thorough budget (high)' });
    await waitForStatus(page, 'completed');
    expect(openRunId(page)).toBe(id);
    await expect(page.locator('#answer-body p').textContent()).resolves.toBe(
      'It got one after all, once the model answered.1',
    );
    await expectFootnoteQuote(page, {
      ref: 1,
      quote: realQuotes.slow.replace(/\.$/, ''),
      href: `${world.web.url}/slow`,
    });
    // The timeline keeps the steps before the cancel and goes on with the new ones, each once.
    const after = await timeline.locator(':scope > li').allTextContents();
    expect(after.slice(0, before.length)).toEqual(before);
    await expect(
      timeline.locator('li[data-kind="read"][data-tone="ok"]', { hasText: realTitles.slow }).count(),
    ).resolves.toBe(1);
    await expect(timeline.getByText('definitive check passed').count()).resolves.toBe(1);
    for (const step of ['Step 1', 'Step 2', 'Step 3'])
      await expect(timeline.locator('li[data-kind="step"]', { hasText: step }).count()).resolves.toBe(1);
    await expect(page.locator('#run-error').isVisible()).resolves.toBe(false);
    await expect(page.getByRole('button', { name: 'Resume', exact: true }).isVisible()).resolves.toBe(false);
    await expect(waitingNote.count()).resolves.toBe(0);
    // The exports hold the resumed run: its new answer, and its events in one unbroken sequence.
    const exported = async (name: string) => {
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name }).click(),
      ]);
      return readFile((await file.path())!, 'utf8');
    };
    const markdown = await exported('Export Markdown');
    expect(markdown).toContain('It got one after all, once the model answered.[^1]');
    const events = (
      JSON.parse(await exported('Export JSON')) as { events: Array<{ seq: number; type: string }> }
    ).events;
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.filter((event) => event.type === 'run-start')).toHaveLength(2);
    await page.mouse.move(5, 5);
    await page.locator('#popover').waitFor({ state: 'hidden' });
    await shotEach(page, 'real-resumed');
    const resumed = await serverRun(id);
    expect(resumed).toMatchObject({ status: 'completed', resumable: false });
    // The gauge shows the resumed run's count as the server has it (both parts), not the earlier one's.
    const used = (
      resumed.result as {
        budget: { tokensUsed: number; maxTokens: number; stepsUsed: number; maxSteps: number };
      }
    ).budget;
    await expect(page.locator('#gauge-text').textContent()).resolves.toBe(
      `${formatTokens(used.tokensUsed)} of ${formatTokens(used.maxTokens)} tokens · step ${used.stepsUsed} of ${used.maxSteps}`,
    );
    expect((resumed.usage as { total_tokens: number }).total_tokens).toBe(used.tokensUsed);
    // The high preset's step budget: the select's choice reached the server.
    expect((resumed.result as { budget: { maxSteps: number } }).budget.maxSteps).toBe(40);
    expect(problems).toEqual([]);
  }, 60_000);

  it('says at once which key the server lacks for the search provider chosen in the settings', async () => {
    world = await startRealWorld();
    const { page, problems } = await openTab(browser!);
    await page.goto(`${world.url}/`);
    await chooseSearchProvider(page, 'brave');
    await ask(page, realQuestions.paris);
    const error = page.locator('#ask-error');
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe(
      "search provider 'brave' needs an API key, which this server does not have: set BRAVE_API_KEY " +
        "where the server runs, or leave search_provider out to search with the server's default (searxng)" +
        '. On this page: Settings → Search provider (empty: the server’s default).',
    );
    await expect(error.getAttribute('role')).resolves.toBe('alert');
    // Nothing was started: no run opened, none listed, no model called.
    await expect(page.locator('#run').isVisible()).resolves.toBe(false);
    await expect(page.locator('#history-empty').textContent()).resolves.toBe('No runs yet.');
    expect(world.llm.requests).toEqual([]);
    await shot(page, 'real-missing-key-desktop-light');
    // Back to the server's default, the same question runs.
    await chooseSearchProvider(page, '');
    await ask(page, realQuestions.paris);
    await waitForStatus(page, 'completed');
    await expect(error.isVisible()).resolves.toBe(false);
    expect(problems.filter((problem) => !problem.includes('400'))).toEqual([]);
  }, 60_000);

  it('a Resume that comes after the run was resumed elsewhere says why and shows the run as it is now', async () => {
    world = await startRealWorld();
    const { page, problems } = await openTab(browser!);
    await page.goto(`${world.url}/`);
    await ask(page, realQuestions.hang);
    await page.locator('#timeline li[data-kind="step"]', { hasText: 'Step 2' }).waitFor();
    await cancelOpenRun(page);
    const id = openRunId(page);
    await page.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    // Another client resumes it through the API and it completes, while this page still offers Resume.
    world.answerHang();
    const other = await fetch(`${world.url}/v1/research/${id}/resume`, { method: 'POST' });
    expect(other.status).toBe(202);
    await expect
      .poll(async () => (await serverRun(id)).status, { timeout: 20_000, interval: 100 })
      .toBe('completed');
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await page.locator('#ask-error', { hasText: 'is complete' }).waitFor();
    await expect(page.locator('#ask-error').textContent()).resolves.toBe(
      `run ${id} is complete: its answer did not stop on a budget, so there is nothing to resume`,
    );
    await waitForStatus(page, 'completed');
    await expect(page.locator('#answer-body p').textContent()).resolves.toBe(
      'It got one after all, once the model answered.1',
    );
    await expect(page.getByRole('button', { name: 'Resume', exact: true }).isVisible()).resolves.toBe(false);
    await shot(page, 'real-resume-refused-desktop-light');
    expect(problems.filter((problem) => !problem.includes('400'))).toEqual([]);
  }, 60_000);

  it('shows markup from a page and from the answer as text: nothing runs', async () => {
    world = await startRealWorld();
    const { page, problems } = await openTab(browser!, { colorScheme: 'dark' });
    await page.goto(`${world.url}/`);
    await ask(page, realQuestions.hostile);
    await waitForStatus(page, 'completed');
    const timeline = page.locator('#timeline');
    await expect(timeline.getByRole('link', { name: realTitles.hostile }).count()).resolves.toBe(1);
    // Markup the model wrote in its answer is text too; its javascript: link is not a link.
    await expect(page.locator('#answer-body p').textContent()).resolves.toBe(
      'The page shows markup as text: <script>alert(6)</script> <img src=x onerror=alert(7)> a link.1',
    );
    await expect(page.locator('#answer-body a').getAttribute('href')).resolves.toBeNull();
    // ...and does not look like one.
    const colorOf = (selector: string) =>
      page.locator(selector).evaluate((node) => getComputedStyle(node).color);
    await expect(colorOf('#answer-body a')).resolves.toBe(await colorOf('#answer-body p'));
    await page.locator('#answer-body button.fn[data-ref="1"]').click();
    await expect(page.locator('#popover blockquote').textContent()).resolves.toBe(
      realQuotes.hostile.replace(/\.$/, ''),
    );
    await expect(page.locator('#popover-link').textContent()).resolves.toBe(realTitles.hostile);
    await expect(page.locator('.source-card').textContent()).resolves.toContain(realTitles.hostile);
    await expectNothingRan(page);
    await shot(page, 'real-hostile-desktop-dark');
    expect(problems).toEqual([]);
  }, 60_000);

  it('asks for the API key, refuses a wrong one, and sends the right one only as a Bearer header', async () => {
    const key = 'sk-web-ui-real-0123456789';
    world = await startRealWorld({ apiKey: key });
    const { page, problems } = await openTab(browser!);
    const sent = recordRequests(page);
    await signIn(page, {
      url: world.url,
      wrongKey: 'sk-wrong-key',
      key,
      refusal: 'invalid API key',
      onState: (state) => shot(page, `real-login-${state}-desktop-light`),
    });
    await ask(page, realQuestions.paris);
    await waitForStatus(page, 'completed');
    await shot(page, 'real-signed-in-desktop-light');
    await expect(serverRun(openRunId(page), key)).resolves.toMatchObject({ status: 'completed' });

    const apiCalls = sent.filter((request) => new URL(request.url).pathname.startsWith('/v1/'));
    expect(apiCalls.some((request) => request.authorization === `Bearer ${key}`)).toBe(true);
    expect(sent.filter((request) => request.url.includes(key))).toEqual([]);
    expect(page.url()).not.toContain(key);
    expect(world.server.stdout + world.server.stderr).not.toContain(key);
    await signOut(page);
    expect(problems).toEqual([]);
  }, 60_000);

  it('researches an outline reviewed and edited on the page: each section live with its steps, the report linked to its evidence, exports, follow-ups', async () => {
    world = await startRealWorld({ research: true });
    expect(world.server.stderr).toContain(`deepsearch: web page at ${world.url}/\n`);
    const { page, problems } = await openTab(browser!, { colorScheme: 'dark' });
    await page.goto(`${world.url}/`);
    await researchWithOutline(page, researchTopic, {
      onEditor: async (tab) => {
        await expect(tab.getByLabel('Report title').inputValue()).resolves.toBe(
          'European heat pump sales after 2022',
        );
        await expect(tab.getByLabel('Section 1 heading').inputValue()).resolves.toBe('Sales');
        await expect(
          tab.getByLabel('Section 1 facts the report needs, one per line').inputValue(),
        ).resolves.toBe('heat pump sales in 2023');
        // Planning only: one model call, no run recorded yet.
        expect(
          world!.llm.requests.filter((request) => request.route).map((request) => request.route),
        ).toEqual(['research_plan']);
        await expect(serverRuns()).resolves.toEqual([]);
        await shotEach(tab, 'real-outline-editor');
      },
      edit: (tab) => addOutlineSection(tab, 'Outlook', ['What is the outlook for heat pump sales?']),
    });
    await waitForStatus(page, 'completed');
    // The edited outline was followed: no second planning call.
    expect(world.llm.requests.filter((request) => request.route === 'research_plan')).toHaveLength(1);
    await expect(outlineStates(page)).resolves.toEqual([
      ['Sales', 'written · covered 2 of 2 · 2 sources'],
      ['Outlook', 'written · covered 1 of 1 · 2 sources'],
    ]);
    const steps = await sectionSteps(page, 'Outlook');
    expect(steps).toContain('Hop 1: Outlook (How did European heat pump sales change after 2022?)');
    expect(steps).toContain('European heat pump sales');
    expect(steps).toMatch(/Librarian · Outlook: after hop 1: 1 of 1 covered/);
    // What is not a section's stays in the run's timeline; no section line is there.
    const timeline = page.locator('#timeline');
    await expect(
      timeline.getByText('Plan: European heat pump sales after 2022 (2 sections)').count(),
    ).resolves.toBe(1);
    await expect(
      timeline.getByText(/Research Strategist: following the given outline/).count(),
    ).resolves.toBe(1);
    await expect(timeline.getByText(/Synthesizer: writing 2 sections in parallel/).count()).resolves.toBe(1);
    await expect(timeline.getByText(/after hop 1|^Step \d/).count()).resolves.toBe(0);
    // The gauge is the task's budget, as the server reports it.
    const run = await serverRun(openRunId(page));
    const budget = (run.result as { budget: { tokensUsed: number; maxTokens: number } }).budget;
    await expect(page.locator('#gauge-text').textContent()).resolves.toBe(
      `${formatTokens(budget.tokensUsed)} of ${formatTokens(budget.maxTokens)} tokens`,
    );
    await expect(page.locator('#answer-body h1').textContent()).resolves.toBe(
      'European heat pump sales after 2022',
    );
    await expect(page.locator('.source-card').count()).resolves.toBe(3);
    const evidence = await openEvidenceFromReport(page, 'Sales');
    expect(evidence).toContain('Evidence: 2 of 2 covered');
    expect(evidence).toContain('Heat pump sales in Europe reached 3 million units in 2022');
    await shotEach(page, 'real-research');
    // The server's renderings of the report: one HTML page, and Chromium's PDF of it.
    const html = await exportFile(page, 'Export HTML');
    expect(html.name).toBe('european-heat-pump-sales-after-2022.html');
    expect(html.text).toMatch(/^<!doctype html>/);
    const pdf = await exportFile(page, 'Export PDF');
    expect(pdf.name).toBe('european-heat-pump-sales-after-2022.pdf');
    expect(pdf.text.startsWith('%PDF-')).toBe(true);
    await expectFootnoteQuote(page, {
      ref: 3,
      quote: 'In 2023 heat pump sales in Europe declined by 7 percent',
      href: `${world.web.url}/iea`,
    });
    // The same report on a phone, switched to the light theme with the page's toggle.
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.mouse.move(5, 5);
    await page.locator('#popover').waitFor({ state: 'hidden' });
    // A tap on the marker at the right edge: the popover keeps its full width inside the screen.
    await page.locator('#answer-body button.fn[data-ref="3"]').first().click();
    const box = await page.locator('#popover').boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.keyboard.press('Escape');
    await shot(page, 'real-research-mobile-light');
    // A follow-up question is one click from a run of its own, as the page is set to: an answer here.
    await page.getByLabel('Answer', { exact: true }).check();
    await page.getByRole('button', { name: 'Which countries drove the 2023 decline?', exact: true }).click();
    await page.locator('#run-question', { hasText: 'Which countries drove the 2023 decline?' }).waitFor();
    await waitForStatus(page, 'completed');
    await expect(page.locator('#answer-body p').first().textContent()).resolves.toContain('3 million units');
    expect(problems).toEqual([]);
    expect(world.llm.problems).toEqual([]);
  }, 90_000);

  it('when the LLM server is down, the page says so without its address, offers Retry and no Copy or Export; Retry works once it is back', async () => {
    world = await startRealWorld();
    const { page, problems } = await openTab(browser!, { width: 390, height: 844 });
    await page.goto(`${world.url}/`);
    await world.llmDown();
    await ask(page, realQuestions.paris);
    await expectFailureThenRetry(
      page,
      'The LLM server (openai-compatible) could not be reached: connection refused (ECONNREFUSED)',
      async () => {
        await shotEach(page, 'real-llm-down');
        // Back up before Retry is pressed.
        await world!.llmUp();
      },
    );
    await waitForStatus(page, 'completed');
    await expect(page.locator('#answer-body p').textContent()).resolves.toBe(
      'Paris is the capital of France.1 About 2.1 million people live in the city itself.2',
    );
    await expect(page.getByRole('button', { name: 'Copy', exact: true }).isVisible()).resolves.toBe(true);
    const runs = await serverRuns();
    expect(runs.map((run) => run.status)).toEqual(['completed', 'failed']);
    expect(problems).toEqual([]);
  }, 60_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiRequest,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import {
  researchRoutes,
  researchSearxngResults,
  researchTopic,
  researchWebPages,
} from '../helpers/research-fake-llm.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

/** What Cloudflare answers a bot: 403 and an interstitial whose text must never become content. */
const challengeHtml =
  '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><h1>Verifying you are human. This may take a few seconds.</h1><p>heat pump sales challenge text</p><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>';
/** A news page that loads (200) with only its first line and a wall. */
const paywallHtml =
  '<html><head><title>Heat pumps: the inside story</title></head><body><article><h1>Heat pumps</h1><p>Heat pump installers saw a paywall teaser sentence this year.</p><p>Subscribe to continue reading. Already a subscriber? Sign in.</p></article></body></html>';

let web: FakeHttpServer;
let searxng: FakeHttpServer;
let llm: FakeOpenAiServer;
let urls: { ehpa: string; iea: string; challenge: string; paywall: string; slow: string };

const reply = (object: unknown) => ({
  content: JSON.stringify(object),
  usage: { prompt_tokens: 900, completion_tokens: 60 },
});

/**
 * The heat pump world's agent, which reads the three walled pages with the first market report,
 * then the second report, then answers: what decides is what the prompt already holds.
 */
function agent(request: FakeOpenAiRequest) {
  if (request.prompt.includes('declined by 7 percent'))
    return reply({
      think: 'Both reports read.',
      action: 'answer',
      answer: {
        text: 'Sales reached 3 million units in 2022[^1] and fell in 2023 by 5%[^2] or 7%.[^3]',
        references: [
          { url: urls.ehpa, quote: 'Heat pump sales in Europe reached 3 million units in 2022' },
          { url: urls.ehpa, quote: 'Sales fell by 5% in 2023' },
          { url: urls.iea, quote: 'In 2023 heat pump sales in Europe declined by 7 percent' },
        ],
      },
    });
  if (request.prompt.includes('reached 3 million units'))
    return reply({ think: 'The other report.', action: 'visit', visit: { targets: [urls.iea] } });
  if (request.prompt.includes(urls.ehpa))
    return reply({
      think: 'Read them.',
      action: 'visit',
      visit: { targets: [urls.challenge, urls.paywall, urls.slow, urls.ehpa] },
    });
  return reply({
    think: 'Search first.',
    action: 'search',
    search: { queries: ['European heat pump sales'] },
  });
}

beforeAll(async () => {
  web = await startFakeWeb({
    pages: {
      ...researchWebPages,
      '/challenge': { status: 403, html: challengeHtml, headers: { server: 'cloudflare' } },
      '/paywalled': { html: paywallHtml },
      '/slow': { hang: 'before-headers' },
    },
  });
  urls = {
    ehpa: `${web.url}/ehpa`,
    iea: `${web.url}/iea`,
    challenge: `${web.url}/challenge`,
    paywall: `${web.url}/paywalled`,
    slow: `${web.url}/slow`,
  };
  const found = researchSearxngResults(web.url)['European heat pump sales'];
  searxng = await startFakeSearxng({
    results: {
      'European heat pump sales': [
        { url: urls.challenge, title: 'Heat pump sales 2023', content: 'Sales data.' },
        { url: urls.paywall, title: 'Heat pumps: the inside story', content: 'An inside story.' },
        { url: urls.slow, title: 'Heat pump statistics', content: 'Statistics.' },
        ...found,
      ],
    },
  });
  llm = await startFakeOpenAi({ routes: { ...researchRoutes(web.url), agent_action: agent } });
});

afterAll(async () => {
  await Promise.all([web.close(), searxng.close(), llm.close()]);
});

const env = () => ({
  DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
  DEEPSEARCH_LLM_MODEL: 'fake-model',
  DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
  DEEPSEARCH_SEARXNG_URL: searxng.url,
  DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
  // The slow page times out in a second (and once more, retried); the builtin reader, no Chromium.
  DEEPSEARCH_READER: 'builtin',
  DEEPSEARCH_READER_TIMEOUT: '1',
});

const expectedSkipped = () => [
  {
    url: urls.challenge,
    reason: 'blocked',
    detail: expect.stringContaining('bot check ("Just a moment...") answered with HTTP 403'),
  },
  { url: urls.paywall, reason: 'paywall', detail: 'only a paywall teaser where the article should be' },
  { url: urls.slow, reason: 'timeout', detail: expect.stringContaining('did not answer within 1s') },
];

describe('pages that could not be read (built CLI, a local web with a bot check, a paywall and a hung server)', () => {
  it('ask: none becomes content; --json lists all three in skipped with their reasons', async () => {
    const run = await runBuiltCli(['ask', researchTopic, '--json'], env(), { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.skipped).toEqual(expectedSkipped());
    expect(result.visitedUrls).toEqual([urls.ehpa, urls.iea]);
    expect(result.references.map((reference: { url: string }) => reference.url)).not.toContain(
      urls.challenge,
    );
    // The agent's prompts never held the walls' text as a page's content.
    const prompts = llm.requests.map((request) => request.prompt).join('\n');
    expect(prompts).not.toContain('heat pump sales challenge text');
    expect(prompts).not.toContain('paywall teaser sentence');
    expect(prompts).toContain(`could not read ${urls.challenge}`);
  });

  it('ask: the answer ends with one line saying how many pages could not be read, and why', async () => {
    const run = await runBuiltCli(['ask', researchTopic], env(), { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(
      '3 pages could not be read: 1 blocked by a bot check, 1 behind a paywall, 1 timed out (--json lists them)',
    );
  });

  it('ask with the run kept: the line points to runs evidence, which lists each page and why', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'deepsearch-skipped-'));
    try {
      const kept = { ...env(), DEEPSEARCH_NO_RUNS: '0', DEEPSEARCH_RUNS_FILE: join(folder, 'runs.sqlite') };
      const run = await runBuiltCli(['ask', researchTopic], kept, { timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      const line = run.stdout.trimEnd().split('\n').at(-1)!;
      const id = /deepsearch runs evidence (\S+) lists them$/.exec(line)?.[1];
      expect(line).toMatch(
        /^3 pages could not be read: 1 blocked by a bot check, 1 behind a paywall, 1 timed out — /,
      );
      expect(id).toBeDefined();
      const evidence = await runBuiltCli(['runs', 'evidence', id!], kept);
      expect(evidence.code, evidence.stderr).toBe(0);
      expect(evidence.stdout).toContain('could not be read');
      for (const url of [urls.challenge, urls.paywall, urls.slow]) expect(evidence.stdout).toContain(url);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('research: the report has an appendix listing them, and its JSON the same skipped list', async () => {
    const run = await runBuiltCli(['research', researchTopic, '--json'], env(), { timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.skipped).toEqual(expectedSkipped());
    const appendix = report.markdown.slice(report.markdown.indexOf('## Pages that could not be read'));
    expect(appendix).toMatch(
      /^## Pages that could not be read\n\n3 pages could not be read: 1 blocked by a bot check, 1 behind a paywall, 1 timed out\.\n\n/,
    );
    expect(appendix).toContain(`- <${urls.challenge}>: blocked by a bot check (`);
    expect(appendix).toContain(`- <${urls.paywall}>: behind a paywall (`);
    expect(appendix).toContain(`- <${urls.slow}>: timed out (`);
    expect(report.markdown).not.toContain('heat pump sales challenge text');
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiRoute,
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

// Issue 37: with default flags and a model taking 250 ms a call, a section stopped after one hop
// on the step budget (a deep search's 30, cut between sections, hops and the writer) while the
// estimate, six times the real cost, named only tokens and time.
const latencyMs = 250;

let web: FakeHttpServer;
let searxng: FakeHttpServer;
let llm: FakeOpenAiServer;
let dir: string;
let outline: string;

/** Every route's reply, `latencyMs` later. */
function slow(routes: Record<string, FakeOpenAiRoute>): Record<string, FakeOpenAiRoute> {
  return Object.fromEntries(
    Object.entries(routes).map(([name, route]) => [
      name,
      typeof route === 'function'
        ? (request: Parameters<typeof route>[0]) => ({ ...route(request), delayMs: latencyMs })
        : route.map((reply) => ({ ...reply, delayMs: latencyMs })),
    ]),
  ) as Record<string, FakeOpenAiRoute>;
}

beforeAll(async () => {
  web = await startFakeWeb({ pages: researchWebPages });
  searxng = await startFakeSearxng({ results: researchSearxngResults(web.url) });
  llm = await startFakeOpenAi({ routes: slow(researchRoutes(web.url)) });
  dir = await mkdtemp(join(tmpdir(), 'deepsearch-research-budgets-'));
  outline = join(dir, 'outline.md');
  await writeFile(
    outline,
    [
      '# European heat pumps after 2022',
      `Topic: ${researchTopic}`,
      '## Sales',
      '- How did heat pump sales in Europe change after 2022?',
      '- Data point (web-search): heat pump sales in 2023',
      '## Prices',
      '- What did heat pumps cost in 2023?',
      '## Outlook',
      '- What is the outlook for heat pump sales?',
    ].join('\n'),
  );
});

afterAll(async () => {
  await Promise.all([web.close(), searxng.close(), llm.close()]);
  await rm(dir, { recursive: true, force: true });
});

function research(args: string[]) {
  return runBuiltCli(
    ['research', '--outline', outline, '--format', 'json', ...args, '--allow-private-network'],
    {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
      DEEPSEARCH_SEARXNG_URL: searxng.url,
    },
    { timeoutMs: 120_000 },
  );
}

/** "estimate: ~46k tokens of 1M budget, ~2 min of 10 min, ~24 steps of 108, ~40 LLM calls" */
function parseEstimate(stderr: string): { tokens: number; calls: number; line: string } {
  const line = stderr.split('\n').find((text) => text.includes('estimate: ~'));
  expect(line, stderr).toBeDefined();
  const match = /estimate: ~([\d.]+)(k|M)? tokens.*~(\d+) LLM calls/.exec(line!);
  expect(match, line).not.toBeNull();
  const scale = match![2] === 'M' ? 1_000_000 : match![2] === 'k' ? 1000 : 1;
  return { tokens: Number(match![1]) * scale, calls: Number(match![3]), line: line! };
}

describe('research budgets with default flags and a 250 ms model (built CLI)', () => {
  it('cuts no section by steps, and estimates tokens and calls within 2x of what the run used', async () => {
    const run = await research([]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    // No section stopped by a budget; research's own steps are named in the estimate.
    expect(run.stderr).not.toMatch(/stopping ".*": the \w+ budget/);
    const gathered = report.sections.map((section: { coverage: { stopped?: string } }) => section);
    expect(gathered).toHaveLength(3);
    const estimate = parseEstimate(run.stderr);
    expect(estimate.line).toMatch(/~\d+ steps of \d+/);
    // Rounded to two figures, not "~428.0k".
    expect(estimate.line).not.toMatch(/\d\.\dk tokens/);
    const tokens = report.usage.totalTokens;
    const calls = report.usage.llmCalls;
    expect(
      estimate.tokens / tokens,
      `estimate ${estimate.tokens} tokens, used ${tokens}`,
    ).toBeLessThanOrEqual(2);
    expect(estimate.tokens / tokens).toBeGreaterThanOrEqual(0.5);
    expect(estimate.calls / calls, `estimate ${estimate.calls} calls, made ${calls}`).toBeLessThanOrEqual(2);
    expect(estimate.calls / calls).toBeGreaterThanOrEqual(0.5);
  });

  it('a step budget chosen too tight stops a section with a message naming --max-steps', async () => {
    const run = await research(['--max-steps', '6']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /stopping ".*" before hop \d: the step budget leaves this hop \d steps?, a hop needs 4 steps: raise --max-steps/,
    );
    // The estimate said so before the run started.
    expect(parseEstimate(run.stderr).line).toContain('the budget will stop it first: steps (--max-steps)');
  });
});

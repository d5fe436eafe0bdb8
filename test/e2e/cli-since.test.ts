import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { alwaysPassingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import {
  repeatingAgent,
  startWeakModelWorld,
  type WeakModelWorld,
  weakModelQuestion,
} from '../helpers/weak-model-world.js';

let world: WeakModelWorld;
let llm: FakeOpenAiServer;
beforeAll(async () => {
  world = await startWeakModelWorld();
  const reply = (object: unknown) => ({ content: JSON.stringify(object) });
  llm = await startFakeOpenAi({ routes: { ...repeatingAgent(world), ...alwaysPassingEvaluation(reply) } });
});
afterAll(async () => {
  await world.close();
  await llm.close();
});

const env = () => ({
  DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
  DEEPSEARCH_LLM_MODEL: 'fake-model',
  DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
  DEEPSEARCH_SEARXNG_URL: world.searxng.url,
  DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
  DEEPSEARCH_READER: 'builtin',
});

describe('deepsearch ask --since (built CLI)', () => {
  it('sends the search with SearXNG time_range covering it', async () => {
    world.searxng.requests.length = 0;
    const run = await runBuiltCli(['ask', weakModelQuestion, '--since', '10d'], env());
    expect(run.code, run.stderr).toBe(0);
    const searches = world.searxng.requests.filter((request) => request.path === '/search');
    expect(searches.length).toBeGreaterThan(0);
    for (const request of searches) expect(request.query.time_range).toBe('month');
  });

  it('refuses a value that is neither a date nor a duration, saying what it takes, before any call', async () => {
    const before = llm.requests.length;
    const run = await runBuiltCli(['ask', weakModelQuestion, '--since', 'last week'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--since must be a date (2026-11-01) or a duration back from now');
    expect(llm.requests.length).toBe(before);
  });
});

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
beforeAll(async () => {
  world = await startWeakModelWorld();
});
afterAll(async () => {
  await world.close();
});

const reply = (object: unknown) => ({ content: JSON.stringify(object) });

async function askWeakModel(llm: FakeOpenAiServer) {
  const run = await runBuiltCli(['ask', weakModelQuestion, '--json', '--allow-private-network'], {
    DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
    DEEPSEARCH_LLM_MODEL: 'fake-model',
    DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
    DEEPSEARCH_SEARXNG_URL: world.searxng.url,
  });
  expect(run.code).toBe(0);
  return { ...run, output: JSON.parse(run.stdout) };
}

const agentCalls = (llm: FakeOpenAiServer) =>
  llm.requests.filter((request) => request.route === 'agent_action');

describe('a weak model that repeats itself (built CLI, real HTTP on 127.0.0.1)', () => {
  it('is pushed off its repeated steps and answers within 10 steps and 40k tokens', async () => {
    const llm = await startFakeOpenAi({
      routes: { ...repeatingAgent(world), ...alwaysPassingEvaluation(reply) },
    });
    try {
      const { output, stderr } = await askWeakModel(llm);
      // Before: 30 steps and ~57k (estimated) tokens, every step after the third repeating one of two.
      expect(output.steps).toBeLessThanOrEqual(10);
      expect(output.usage.totalTokens).toBeLessThanOrEqual(40_000);
      expect(output.references[0].url).toBe(world.readUrls[0]);
      // A verified quote holds no heading glued to it.
      expect(output.references[0].quote).toBe(
        'The Varnholt Observatory was founded in 1893 by the Kestrel Trust',
      );
      // Its rewriter writes a list of strings: taken as queries, not re-asked, no validator words.
      expect(output.usage.byRole.rewriter).toMatchObject({ calls: 1 });
      expect(output.usage.parseFailures).toBe(0);
      expect(stderr).not.toMatch(/must be an object|query rewrite/);
      expect(stderr).toContain('! no progress: the query was searched before');
      expect(stderr).toContain(
        '! no progress: all 3 pages named were read before; search and visit are off for a step',
      );
      // The step after two fruitless ones in a row offers neither action, and its diary says why
      // and which pages are still unread.
      const pushed = agentCalls(llm).at(-1)!;
      expect(pushed.system).not.toContain('<action-search>');
      expect(pushed.system).not.toContain('<action-visit>');
      expect(pushed.prompt).toMatch(
        /all 3 pages named were read before; choose from the unread ones: \[\d+\] http:\/\/127\.0\.0\.1:\d+\/(instruments|staff|harbour|societies-list)/,
      );
      expect(pushed.prompt).toContain(
        '2 steps in a row found nothing new, so search and visit are switched off for the next step.',
      );
      expect(pushed.prompt).toMatch(
        /nothing new was searched: the query repeats "Varnholt Observatory founded" \(step 1\)/,
      );
    } finally {
      await llm.close();
    }
  });

  it('a model that never moves on goes to the final answer, and the diary says why', async () => {
    const llm = await startFakeOpenAi({
      routes: { ...repeatingAgent(world, { stubborn: true }), ...alwaysPassingEvaluation(reply) },
    });
    try {
      const { output, stderr } = await askWeakModel(llm);
      expect(output.steps).toBeLessThanOrEqual(10);
      expect(output.usage.totalTokens).toBeLessThanOrEqual(40_000);
      expect(output.budget).toMatchObject({ exhausted: 'no-progress', finalAnswerForced: true });
      expect(output.confidenceReason).toContain('the last steps found nothing new');
      expect(stderr).toContain(
        '! no progress: 3 steps in a row found nothing new; answering from what was found',
      );
      const final = llm.requests.find((request) => request.route === 'final_answer')!;
      expect(final.prompt).toMatch(/found nothing new: the run goes to its final answer\./);
      expect(final.system).toContain('the last steps found nothing new');
    } finally {
      await llm.close();
    }
  });

  it("a step the LLM server failed is noted in the diary without the server's address", async () => {
    const agent = repeatingAgent(world);
    let calls = 0;
    const llm = await startFakeOpenAi({
      routes: {
        ...agent,
        // The second step's call fails: the server answers 503 (no retries).
        agent_action: (request) =>
          ++calls === 2
            ? { status: 503, body: { error: { message: 'overloaded' } } }
            : agent.agent_action(request),
        ...alwaysPassingEvaluation(reply),
      },
    });
    try {
      const run = await runBuiltCli(
        ['ask', weakModelQuestion, '--json', '--allow-private-network', '--llm-max-retries', '0'],
        {
          DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
          DEEPSEARCH_LLM_MODEL: 'fake-model',
          DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
          DEEPSEARCH_SEARXNG_URL: world.searxng.url,
        },
      );
      expect(run.code).toBe(0);
      const port = new URL(llm.url).port;
      const after = agentCalls(llm).slice(2);
      expect(after.length).toBeGreaterThan(0);
      // The diary says the step failed, and what the server said, but not where the server is.
      expect(after[0]!.prompt).toMatch(/this step failed \([^)]*503/);
      for (const request of after) expect(request.prompt).not.toContain(`:${port}`);
      // The person sees which server failed.
      expect(run.stderr).toContain(llm.url);
    } finally {
      await llm.close();
    }
  });
});

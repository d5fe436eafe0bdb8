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
  researchPlanReply,
  researchRoutes,
  researchSearxngResults,
  researchTopic,
  researchWebPages,
} from '../helpers/research-fake-llm.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

/**
 * What a small model writes where research asks for lists of single-purpose objects (the
 * rewriter's queries, the next hop's gaps, a contradiction's sides): lists of strings. The run
 * takes them; what it cannot take is said in a person's words, the validator's only with --debug.
 */
let web: FakeHttpServer;
let searxng: FakeHttpServer;
beforeAll(async () => {
  web = await startFakeWeb({ pages: researchWebPages });
  const hits = researchSearxngResults(web.url)['European heat pump sales'];
  searxng = await startFakeSearxng({ results: (query) => (query.includes('heat pump') ? hits : []) });
});
afterAll(async () => {
  await Promise.all([web.close(), searxng.close()]);
});

const reply = (object: unknown) => ({ content: JSON.stringify(object) });
/** A plan with an item the pages do not give (an outlook): the section needs a next hop. */
const planWithGap = {
  ...researchPlanReply,
  sections: [
    {
      heading: 'Sales',
      questions: [
        'How did heat pump sales in Europe change after 2022?',
        'What is the outlook for heat pump sales to 2030?',
      ],
    },
  ],
};
const nextHopQuery = 'heat pump outlook 2030 forecast';

async function research(routes: Record<string, FakeOpenAiRoute>, extra: string[] = []) {
  const llm: FakeOpenAiServer = await startFakeOpenAi({
    routes: {
      ...researchRoutes(web.url),
      research_plan: () => reply(planWithGap),
      query_rewrite: () => reply({ think: 'fine', queries: ['European heat pump sales'] }),
      ...routes,
    },
  });
  try {
    const run = await runBuiltCli(
      ['research', researchTopic, '--json', '--allow-private-network', '--max-hops', '2', ...extra],
      {
        DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
        DEEPSEARCH_SEARXNG_URL: searxng.url,
      },
      { timeoutMs: 90_000 },
    );
    return { ...run, llm };
  } finally {
    await llm.close();
  }
}

describe('research with a small model (built CLI, real HTTP on 127.0.0.1)', { timeout: 120_000 }, () => {
  it('takes lists of strings as next-hop gaps, rewrites and contradiction sides, with no warning', async () => {
    const run = await research({
      next_hop_queries: () => reply({ gaps: [nextHopQuery] }),
      research_contradictions: () =>
        reply({ contradictions: [{ topic: 'The 2023 decline', sides: ['down 5% [2]', 'down 7% [3]'] }] }),
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/must be an object|could not be used|failed/);
    // Hop 2 researched the gap the model wrote as a bare string.
    const agentPrompts = run.llm.requests.filter((request) => request.route === 'agent_action');
    expect(agentPrompts.some((request) => request.prompt.includes(nextHopQuery))).toBe(true);
    const report = JSON.parse(run.stdout);
    expect(report.contradictions).toHaveLength(1);
    expect(report.contradictions[0].sides.map((side: { claim: string }) => side.claim)).toEqual([
      'down 5%',
      'down 7%',
    ]);
  });

  it("a reply it cannot use is said in a person's words; the validator's words only with --debug", async () => {
    // A gap with no query in it: nothing to search.
    const unusable = { next_hop_queries: () => reply({ gaps: [{ id: 1, note: 'more data needed' }] }) };
    const plain = await research(unusable);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain(
      "! writing the next search questions: the model's reply could not be used; the section stops here",
    );
    expect(plain.stderr).not.toMatch(/`gaps|is missing|must be/);
    const debug = await research(unusable, ['--debug']);
    expect(debug.stderr).toContain("the reply's field `gaps.0.queries` is missing");
  });
});

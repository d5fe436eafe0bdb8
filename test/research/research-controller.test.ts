import { describe, expect, it } from 'vitest';
import type { DeepSearchConfig } from '../../src/config/config-schema.js';
import { isAbortError } from '../../src/core/errors/index.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import type { ResearchPlan, ResearchReport } from '../../src/events/research-result.js';
import { createLlmClient } from '../../src/providers/llm/create-llm-client.js';
import { runResearch } from '../../src/research/run-research.js';
import { findQuote } from '../../src/retrieval/find-quote.js';
import type { ScriptedCall } from '../../src/testing/scripted-llm.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { eventsOf } from '../helpers/agent-harness.js';
import { createFakeResearchWorld, type WorldFact } from '../helpers/fake-research-world.js';
import { createRoutedLlm, type LlmRoute, type RoutedLlm } from '../helpers/routed-llm.js';

const facts: WorldFact[] = [
  {
    keywords: ['germany'],
    url: 'https://stats.example/germany',
    title: 'Heat pumps in Germany',
    sentence: 'Germany sold 236,000 heat pumps in 2022, up from 86,000 in 2019.',
  },
  {
    keywords: ['france'],
    url: 'https://stats.example/france',
    title: 'Heat pumps in France',
    sentence: 'France installed 621,000 heat pumps in 2022, the most in Europe.',
  },
  {
    keywords: ['subsid'],
    url: 'https://policy.example/subsidies',
    title: 'Heat pump subsidies',
    sentence: 'Subsidies covered up to 40 percent of a heat pump installation in 2023.',
  },
  {
    // Found only by the fake next hop's variation "<item> statistics", not by the item's own wording.
    keywords: ['installers are there? statistics'],
    covers: ['installers'],
    url: 'https://trade.example/installers',
    title: 'Installer workforce',
    sentence: 'The sector counted 50,000 certified heat pump installers in 2023.',
  },
];

function plan(overrides: Partial<ResearchPlan> = {}): { sections: unknown[] } {
  return {
    title: 'Heat pumps in Europe',
    sections: [
      { heading: 'Markets', questions: ['How many heat pumps did Germany sell?'] },
      { heading: 'Leaders', questions: ['Which country installed the most, France or Germany?'] },
      { heading: 'Policy', questions: ['What subsidies were offered?', 'How many installers are there?'] },
    ],
    dataPoints: [],
    ...overrides,
  };
}

interface Run {
  report: ResearchReport;
  events: AgentEvent[];
  llm: RoutedLlm;
  world: ReturnType<typeof createFakeResearchWorld>;
  config: DeepSearchConfig;
}

async function research(options: {
  routes?: LlmRoute[];
  config?: Parameters<typeof createTestConfig>[0];
  input?: { plan?: ResearchPlan; signal?: AbortSignal };
  delayMs?: number;
  onEvent?: (event: AgentEvent) => void;
  onStart?: (llm: RoutedLlm) => void;
}): Promise<Run> {
  const world = createFakeResearchWorld(facts, { delayMs: options.delayMs ?? 2 });
  const llm = createRoutedLlm([...(options.routes ?? []), ...world.routes]);
  const config = createTestConfig({
    budget: { maxSteps: 120 },
    research: { concurrency: 3, maxHops: 3 },
    ...options.config,
  });
  const events: AgentEvent[] = [];
  options.onStart?.(llm);
  const report = await runResearch({
    topic: 'Heat pump adoption in Europe',
    config,
    llm: createLlmClient({ config, createModel: () => llm }),
    search: world.search,
    reader: world.reader,
    ...options.input,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
  });
  return { report, events, llm, world, config };
}

const planRoute = (object: object = plan()): LlmRoute => ({
  schemaName: 'research_plan',
  reply: object,
  times: 1,
});

describe('research controller', () => {
  it('plans, runs sections in parallel, judges coverage, and sends the next hop after the gap', async () => {
    const { report, events, llm, world } = await research({ routes: [planRoute()] });
    llm.assertNoProblems();
    expect(report.sections.map((section) => section.coverage)).toEqual([1, 1, 1]);
    // Sections ran at once, not one after another.
    expect(llm.maxConcurrent).toBeGreaterThan(1);
    const hops = eventsOf(events, 'research-hop');
    expect(hops.filter((hop) => hop.hop === 1).map((hop) => hop.section)).toEqual(['s1', 's2', 's3']);
    // Policy's installers question was missing after hop 1; hop 2 searched variations of it.
    const policy = eventsOf(events, 'coverage').filter((event) => event.section === 's3');
    expect(policy.map((event) => event.missing)).toEqual([['How many installers are there?'], []]);
    const second = hops.find((hop) => hop.section === 's3' && hop.hop === 2)!;
    expect(second.questions).toEqual([
      'How many installers are there? statistics',
      'How many installers are there? official report',
      'How many installers are there? news',
    ]);
    expect(hops.filter((hop) => hop.section !== 's3').every((hop) => hop.hop === 1)).toBe(true);
    // Markets and Leaders both needed the German page: it was read once for the task.
    const reads = world.reader.calls;
    expect(reads.filter((url) => url === 'https://stats.example/germany')).toHaveLength(1);
    expect(new Set(reads).size).toBe(reads.length);
    // The librarian and strategist say what they do and why.
    const lines = eventsOf(events, 'persona');
    expect(
      lines.some(
        (line) => line.persona === 'librarian' && line.message.includes('missing: "How many installers'),
      ),
    ).toBe(true);
    expect(lines.some((line) => line.persona === 'search' && line.message.startsWith('hop 2:'))).toBe(true);
  });

  it('keeps every evidence quote literally in its source and refuses an invented one', async () => {
    const invented: LlmRoute = {
      schemaName: 'librarian_check',
      promptIncludes: 'How many heat pumps did Germany sell?',
      reply: {
        items: [
          {
            id: 1,
            covered: true,
            quotes: [{ url: 'https://stats.example/germany', quote: 'Germany sold a million heat pumps' }],
          },
        ],
      },
    };
    const { report, events } = await research({ routes: [planRoute(), invented] });
    // Markets' librarian quoted what the page does not say: not evidence, so not covered.
    const markets = eventsOf(events, 'coverage').filter((event) => event.section === 's1');
    expect(markets.every((event) => event.ratio === 0 && event.evidence?.length === 0)).toBe(true);
    expect(report.sections[0]!.coverage).toBe(0);
    const lines = eventsOf(events, 'persona').map((line) => line.message);
    expect(lines.some((line) => line.includes('the quotes given are not in their sources'))).toBe(true);
    // Every quote the other sections' coverage rests on is literally in the page read from its URL.
    const evidence = eventsOf(events, 'coverage').flatMap((event) => event.evidence ?? []);
    expect(evidence.length).toBeGreaterThanOrEqual(3);
    const pages = new Map(facts.map((fact) => [fact.url, fact.sentence]));
    for (const item of [...evidence, ...report.references]) {
      expect(findQuote(item.quote, pages.get(item.url)!)).toBeDefined();
    }
  });

  it('splits the budget fairly, gives what a section leaves to the others, and never exceeds the total', async () => {
    const maxTokens = 600_000;
    const { report, events } = await research({
      routes: [planRoute()],
      config: {
        budget: { maxTokens, maxSteps: 60 },
        research: { concurrency: 1, maxHops: 2, writerShare: 0.25 },
      },
    });
    const hops = eventsOf(events, 'research-hop');
    const first = hops[0]!;
    // Six hops may run (3 sections × 2): the first gets a sixth of the research share.
    const researchShare = maxTokens * 0.75;
    expect(first.limits.maxTokens).toBeLessThanOrEqual(researchShare / 6);
    expect(first.limits.maxTokens).toBeGreaterThan((researchShare / 6) * 0.95);
    expect(first.limits.maxSteps).toBe(Math.floor(45 / 6));
    // Markets was covered in one hop: its second hop's share went to the hops after it.
    const policyHop2 = hops.find((hop) => hop.section === 's3' && hop.hop === 2)!;
    expect(policyHop2.limits.maxTokens).toBeGreaterThan(first.limits.maxTokens * 2);
    expect(report.budget.tokensUsed).toBeLessThanOrEqual(maxTokens);
    // Each hop stayed within its share.
    const runEnds = eventsOf(events, 'run-end').filter((event) => event.runId !== report.runId);
    expect(runEnds).toHaveLength(hops.length);
    for (const [index, end] of runEnds.entries()) {
      expect(end.result.usage.totalTokens).toBeLessThanOrEqual(hops[index]!.limits.maxTokens);
    }
  });

  it('raises the query temperature when a hop makes no progress and resets it when progress returns', async () => {
    let generated = 0;
    const nextHop: LlmRoute = {
      schemaName: 'next_hop_queries',
      // One gap at a time: hop 2 finds installers, hop 3 finds subsidies.
      reply: () =>
        ++generated === 1
          ? { gaps: [{ id: 1, queries: ['How many installers are there? statistics'] }] }
          : { gaps: [{ id: 1, queries: ['subsidies for heat pumps'] }] },
    };
    const { events, llm, report } = await research({
      routes: [
        planRoute(
          plan({
            sections: [
              {
                heading: 'Workforce',
                questions: [
                  'How many installers are there?',
                  'What aid do buyers get for a heat pump installation?',
                ],
              },
            ],
          } as never),
        ),
        nextHop,
        {
          // Hop 1's own questions find nothing; aid is only covered by the subsidies page.
          schemaName: 'librarian_check',
          promptIncludes: '1. (question) What aid do buyers get for a heat pump installation?',
          reply: (call: ScriptedCall) => {
            const found = call.prompt.includes('https://policy.example/subsidies');
            const quotes = found
              ? [{ url: 'https://policy.example/subsidies', quote: facts[2]!.sentence }]
              : [];
            return { items: [{ id: 1, covered: found, quotes }] };
          },
        },
      ],
      config: { research: { maxHops: 3, queryTemperature: 0.3, temperatureStep: 0.25, temperatureCap: 1 } },
    });
    llm.assertNoProblems();
    const stagnation = eventsOf(events, 'stagnation');
    expect(stagnation.map((event) => [event.hop, event.decision, event.temperature])).toEqual([
      [1, 'raise', 0.55],
      [2, 'reset', 0.3],
    ]);
    // The temperature the model received for next-hop queries.
    expect(
      llm.calls.filter((call) => call.schemaName === 'next_hop_queries').map((call) => call.temperature),
    ).toEqual([0.55, 0.3]);
    expect(report.sections[0]!.coverage).toBe(1);
    const lines = eventsOf(events, 'persona').filter((line) => line.persona === 'strategist');
    expect(lines.some((line) => line.message.startsWith('raising the query temperature to 0.55'))).toBe(true);
    expect(lines.some((line) => line.message.startsWith('query temperature back to 0.3'))).toBe(true);
  });

  it('follows an edited plan without planning', async () => {
    const edited: ResearchPlan = {
      topic: 'Heat pump adoption in Europe',
      title: 'France only',
      language: 'English',
      sections: [{ id: 's1', heading: 'France', questions: ['How many heat pumps did France install?'] }],
      dataPoints: [
        { id: 'd1', description: 'France heat pump count 2022', strategy: 'web-search', sectionId: 's1' },
      ],
    };
    const { report, events, llm } = await research({ input: { plan: edited } });
    llm.assertNoProblems();
    expect(llm.calls.some((call) => call.schemaName === 'research_plan')).toBe(false);
    expect(report.title).toBe('France only');
    expect(eventsOf(events, 'research-hop')[0]!.questions).toEqual([
      'How many heat pumps did France install?',
      'France heat pump count 2022',
    ]);
    expect(report.sections.map((section) => section.heading)).toEqual(['France']);
  });

  it('runs the ask-llm and entity-overview strategies and records what verification found', async () => {
    const { events, llm, report } = await research({
      routes: [
        planRoute(
          plan({
            sections: [{ heading: 'Germany', questions: ['How many heat pumps did Germany sell?'] }],
            dataPoints: [
              { description: 'Germany heat pump sales in 2022', strategy: 'ask-llm', section: 1 },
              { description: 'France installations in 2022', strategy: 'entity-overview', section: 1 },
            ],
            coreEntity: 'European heat pump market',
          } as never),
        ),
        {
          schemaName: 'direct_facts',
          reply: { facts: [{ id: 1, known: true, answer: '236,000 units' }] },
          times: 1,
        },
        {
          schemaName: 'entity_overview',
          reply: { overview: 'France leads Europe with 621,000 units in 2022.' },
          times: 1,
        },
        {
          schemaName: 'attribute_extraction',
          reply: { attributes: [{ id: 1, value: '621,000' }] },
          times: 1,
        },
        {
          schemaName: 'verification_queries',
          reply: {
            queries: [
              { id: 1, query: 'Germany heat pump sales 2022' },
              { id: 2, query: 'France heat pump installations 2022' },
            ],
          },
          times: 1,
        },
      ],
    });
    llm.assertNoProblems();
    const temperature = (schema: string) => llm.calls.find((call) => call.schemaName === schema)?.temperature;
    expect(temperature('direct_facts')).toBe(0);
    expect(temperature('attribute_extraction')).toBe(0);
    expect(temperature('research_plan')).toBe(0.1);
    expect(eventsOf(events, 'data-point').map((event) => [event.dataPoint, event.proposedFact])).toEqual([
      ['d1', '236,000 units'],
      ['d2', '621,000'],
    ]);
    expect(eventsOf(events, 'research-hop')[0]!.questions).toEqual([
      'How many heat pumps did Germany sell?',
      'Germany heat pump sales 2022',
      'France heat pump installations 2022',
    ]);
    const librarian = llm.calls.find((call) => call.schemaName === 'librarian_check')!;
    expect(librarian.prompt).toContain('proposed fact to verify: 236,000 units');
    expect(report.sections[0]!.coverage).toBe(1);
    const lines = eventsOf(events, 'persona').map((line) => line.message);
    expect(
      lines.some((line) =>
        line.includes('"236,000 units" for "Germany heat pump sales in 2022" was confirmed'),
      ),
    ).toBe(true);
  });

  it('stops every section within a second of cancellation', async () => {
    const controller = new AbortController();
    let llm: RoutedLlm | undefined;
    const hops = new Set<string>();
    let abortedAt = 0;
    const started = research({
      routes: [planRoute()],
      delayMs: 150,
      input: { signal: controller.signal },
      onStart: (model) => {
        llm = model;
      },
      onEvent: (event) => {
        if (event.type !== 'research-hop') return;
        hops.add(event.section);
        // All three sections are under way when the user cancels.
        if (hops.size === 3 && !abortedAt) {
          setTimeout(() => {
            abortedAt = performance.now();
            controller.abort();
          }, 100);
        }
      },
    });
    const error = await started.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isAbortError(error)).toBe(true);
    expect(abortedAt).toBeGreaterThan(0);
    expect(performance.now() - abortedAt).toBeLessThan(1_000);
    // Nothing keeps running in the background: no model call starts after the cancel.
    const calls = llm!.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(llm!.calls.length).toBe(calls);
  });
});

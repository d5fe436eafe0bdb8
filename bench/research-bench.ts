/**
 * `npm run bench:research`: research mode in process on the fake research world (pages, search,
 * a fake agent and librarian) with a fixed latency per model call. Five sections of two questions;
 * two sections' second question is answered only by a page a next-hop query variation finds, so
 * the librarian reports it missing after the first hop and a second hop goes after it. Runs once one section at a time and once
 * with the configured concurrency, with default budgets. Prints LLM calls, tokens and steps beside
 * the plan's estimate of them, sections a budget cut, wall time, the share of time not spent waiting on the
 * model, and the most model calls in flight at once (sections in parallel).
 */
import type { AgentEvent } from '../src/events/agent-events.js';
import { createLlmClient } from '../src/providers/llm/create-llm-client.js';
import { runResearch } from '../src/research/run-research.js';
import { createTestConfig } from '../src/testing/test-config.js';
import { createFakeResearchWorld, type WorldFact } from '../test/helpers/fake-research-world.js';
import { createRoutedLlm } from '../test/helpers/routed-llm.js';

const latencyMs = Number(process.env.BENCH_LLM_LATENCY_MS ?? 100);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 3);

const countries = ['Germany', 'France', 'Italy', 'Poland', 'Sweden'];
const facts: WorldFact[] = countries.flatMap((country, index) => [
  {
    keywords: [`${country.toLowerCase()} sales`],
    url: `https://stats.example/${country.toLowerCase()}`,
    title: `Heat pumps in ${country}`,
    sentence: `${country} sold ${(index + 2) * 41_000} heat pumps in 2023.`,
  },
  {
    // Germany's and Poland's installer pages are found only by a next-hop variation ("... statistics").
    keywords: [
      index % 3 === 0
        ? `${country.toLowerCase()} installers? statistics`
        : `${country.toLowerCase()} installers`,
    ],
    covers: [`${country.toLowerCase()} installers`],
    url: `https://trade.example/${country.toLowerCase()}-installers`,
    title: `Installers in ${country}`,
    sentence: `${country} counted ${(index + 1) * 9_000} certified heat pump installers in 2023.`,
  },
]);

const plan = {
  title: 'Heat pumps in five European markets',
  sections: countries.map((country) => ({
    heading: country,
    questions: [`What were ${country} sales of heat pumps?`, `How many ${country} installers?`],
  })),
  dataPoints: [],
};

interface Numbers {
  /** The plan's estimate, printed before research starts. */
  estimate: { tokens: number; llmCalls: number; steps: number; budgetSteps: number };
  steps: number;
  /** Sections stopped because a budget could not pay for another hop. */
  cutByBudget: number;
  llmCalls: number;
  tokens: number;
  wallMs: number;
  ownShare: number;
  maxConcurrent: number;
  hops: number;
  coverage: number;
}

async function runOnce(sections: number): Promise<Numbers> {
  const world = createFakeResearchWorld(facts, { delayMs: latencyMs });
  const llm = createRoutedLlm([{ schemaName: 'research_plan', reply: plan }, ...world.routes]);
  // Default budgets (1M tokens, 10 min, research's own steps), as a run with default flags has.
  const config = createTestConfig({ research: { concurrency: sections, maxHops: 3 } });
  const events: AgentEvent[] = [];
  const started = performance.now();
  const report = await runResearch({
    topic: 'Heat pump adoption in five European markets',
    config,
    llm: createLlmClient({ config, createModel: () => llm }),
    search: world.search,
    reader: world.reader,
    onEvent: (event) => events.push(event),
  });
  const wallMs = performance.now() - started;
  llm.assertNoProblems();
  const waiting = unionMs(
    events.flatMap((event) => (event.type === 'llm-call' ? [[event.at - event.ms, event.at] as const] : [])),
  );
  const estimate = events.find((event) => event.type === 'research-plan')?.estimate;
  return {
    estimate: {
      tokens: estimate?.tokens ?? 0,
      llmCalls: estimate?.llmCalls ?? 0,
      steps: estimate?.steps ?? 0,
      budgetSteps: estimate?.budgetSteps ?? 0,
    },
    steps: report.budget.stepsUsed,
    cutByBudget: events.filter(
      (event) =>
        event.type === 'research-section' && event.state === 'gathered' && event.stopped === 'budget',
    ).length,
    llmCalls: report.usage.llmCalls,
    tokens: report.usage.totalTokens,
    wallMs,
    ownShare: Math.max(0, 1 - waiting / wallMs),
    maxConcurrent: llm.maxConcurrent,
    hops: events.filter((event) => event.type === 'research-hop').length,
    coverage: report.sections.reduce((sum, section) => sum + section.coverage, 0) / report.sections.length,
  };
}

/** Time at least one call was in flight: parallel calls count once. */
function unionMs(intervals: ReadonlyArray<readonly [number, number]>): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [from, to] of sorted) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total;
}

const serial = await runOnce(1);
const parallel = await runOnce(concurrency);
const row = (label: string, pick: (numbers: Numbers) => string) =>
  console.log(`${label.padEnd(34)}${pick(serial).padStart(16)}${pick(parallel).padStart(16)}`);
console.log(
  `research bench: 5 sections x 2 questions, 2 sections need a second hop; model latency ${latencyMs} ms per call\n`,
);
console.log(`${''.padEnd(34)}${'concurrency 1'.padStart(16)}${`concurrency ${concurrency}`.padStart(16)}`);
row('LLM calls', (n) => String(n.llmCalls));
row('  estimated', (n) => `${n.estimate.llmCalls} (${(n.estimate.llmCalls / n.llmCalls).toFixed(2)}x)`);
row('tokens', (n) => String(n.tokens));
row('  estimated', (n) => `${n.estimate.tokens} (${(n.estimate.tokens / n.tokens).toFixed(2)}x)`);
row('steps', (n) => String(n.steps));
row('  estimated, of the budget', (n) => `${n.estimate.steps} of ${n.estimate.budgetSteps}`);
row('sections cut by a budget', (n) => String(n.cutByBudget));
row('hops', (n) => String(n.hops));
row('mean section coverage', (n) => n.coverage.toFixed(2));
row('wall time (ms)', (n) => n.wallMs.toFixed(0));
row('share of time not waiting on model', (n) => `${(n.ownShare * 100).toFixed(1)}%`);
row('max concurrent LLM calls', (n) => String(n.maxConcurrent));
console.log(`\nspeed-up ${(serial.wallMs / parallel.wallMs).toFixed(2)}x`);

import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-events.js';
import { createLlmClient } from '../../src/providers/llm/create-llm-client.js';
import { isResearchRestore, type ResearchCheckpoint } from '../../src/research/research-checkpoint.js';
import type { ResearchInput } from '../../src/research/research-context.js';
import { runResearch } from '../../src/research/run-research.js';
import { resumeTarget } from '../../src/runs/resume-target.js';
import { emptyRunUsage } from '../../src/runs/run-cost.js';
import { createRunStore } from '../../src/runs/run-store.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { createFakeResearchWorld, type WorldFact } from '../helpers/fake-research-world.js';
import { createRoutedLlm } from '../helpers/routed-llm.js';

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
];

const plan = {
  title: 'Heat pumps in Europe',
  sections: [
    { heading: 'Markets', questions: ['How many heat pumps did Germany sell?'] },
    { heading: 'Leaders', questions: ['How many heat pumps did France install?'] },
  ],
  dataPoints: [],
};

/** One research process: a fresh fake world and model, sections one at a time, one hop each. */
async function research(options: Pick<ResearchInput, 'restore' | 'onCheckpoint'> = {}) {
  const world = createFakeResearchWorld(facts, { delayMs: 1 });
  const llm = createRoutedLlm([{ schemaName: 'research_plan', reply: plan, label: 'plan' }, ...world.routes]);
  const config = createTestConfig({ budget: { maxSteps: 80 }, research: { concurrency: 1, maxHops: 1 } });
  const events: AgentEvent[] = [];
  const report = await runResearch({
    topic: 'Heat pump adoption in Europe',
    runId: 'task',
    config,
    llm: createLlmClient({ config, createModel: () => llm }),
    search: world.search,
    reader: world.reader,
    onEvent: (event) => events.push(event),
    ...options,
  });
  llm.assertNoProblems();
  return { report, events, llm, world };
}

/** Every checkpoint of a whole run, as the run store gives it back. */
async function checkpointsOfOneRun() {
  const store = createRunStore({ file: ':memory:', retention: { maxRuns: 10, maxAgeDays: 10 } });
  store.begin(
    { id: 'task', owner: 'local', source: 'cli', mode: 'research', question: 'q', options: {}, settings: {} },
    'running',
  );
  const stored: ResearchCheckpoint[] = [];
  const first = await research({
    onCheckpoint: (checkpoint) => {
      store.checkpoint('task', checkpoint, emptyRunUsage());
      const restore = store.restore('task')!;
      if (!isResearchRestore(restore)) throw new Error('not a research checkpoint');
      // What is stored is what was given, as plain JSON.
      expect(restore.checkpoint).toEqual(JSON.parse(JSON.stringify(checkpoint)));
      stored.push(restore.checkpoint);
    },
  });
  return { first, stored, store };
}

describe('research resume', () => {
  it('checkpoints each phase: the plan, the probe, each section gathered, the draft, the written report', async () => {
    const { first, stored, store } = await checkpointsOfOneRun();
    expect(
      stored.map((checkpoint) => [
        checkpoint.step,
        !!checkpoint.facts,
        !!checkpoint.drafted,
        !!checkpoint.written,
      ]),
    ).toEqual([
      [0, false, false, false],
      [0, true, false, false],
      [1, true, false, false],
      [2, true, false, false],
      [2, true, true, false],
      [2, true, false, true],
    ]);
    expect(stored[2]!.sections.map((evidence) => evidence.section.heading)).toEqual(['Markets']);
    // The shared knowledge and the budget as they were when the first section ended.
    expect(stored[2]!.state.pages.map(({ page }) => page.url)).toEqual(['https://stats.example/germany']);
    expect(stored[2]!.budget.stepsUsed).toBeGreaterThan(0);
    expect(stored[4]!.drafted!.sections.map((section) => section.heading)).toEqual(['Markets', 'Leaders']);
    expect(stored[5]!.written!.title).toBe(first.report.title);
    // A research run that ended with its report has nothing to resume; one cut short has.
    store.finish('task', { status: 'completed', result: { markdown: first.report.markdown } });
    expect(() => resumeTarget({ store, runId: 'task' })).toThrow(/its report is written/);
    store.begin(
      {
        id: 'task',
        owner: 'local',
        source: 'cli',
        mode: 'research',
        question: 'q',
        options: {},
        settings: {},
      },
      'running',
      2 ** 30,
    );
    const target = resumeTarget({ store, runId: 'task' });
    expect(target.kind).toBe('research');
    expect(target.restore.checkpoint).toEqual(stored[5]);
  });

  it('goes on after the first section: no planning call, the first section is not researched again', async () => {
    const { first, stored } = await checkpointsOfOneRun();
    const restore = { checkpoint: stored[2]!, lastSeq: 40 };
    const resumed = await research({ restore });
    expect(resumed.llm.calls.some((call) => call.label === 'plan')).toBe(false);
    // Only the second section searched and read.
    expect(resumed.world.search.queries.some((query) => /germany/i.test(query))).toBe(false);
    expect(resumed.world.search.queries.some((query) => /france/i.test(query))).toBe(true);
    expect(resumed.world.reader.calls).toEqual(['https://stats.example/france']);
    const hops = resumed.events.filter((event) => event.type === 'research-hop');
    expect(hops.map((event) => event.type === 'research-hop' && event.section)).toEqual(['s2']);
    // The estimate is of what is left (one section of two), not the whole run's again.
    const estimateOf = (events: AgentEvent[]) =>
      events.find((event) => event.type === 'research-plan')?.estimate;
    const whole = estimateOf(first.events)!;
    const left = estimateOf(resumed.events)!;
    expect(whole.sections).toBeUndefined();
    expect(left.sections).toBe(1);
    expect(left.llmCalls).toBeLessThan(whole.llmCalls);
    expect(left.tokens).toBeLessThan(whole.tokens);
    expect(resumed.report.sections.map((section) => [section.heading, section.coverage])).toEqual([
      ['Markets', 1],
      ['Leaders', 1],
    ]);
    // The task's events go on from the stored sequence.
    const task = resumed.events.filter((event) => event.runId === 'task');
    expect(task[0]).toMatchObject({ type: 'run-start', seq: 41 });
    // Usage counts both processes: what the checkpoint had used, and every call made since.
    const before = Object.values(stored[2]!.budget.byRole).reduce((sum, role) => sum + role!.calls, 0);
    expect(resumed.report.usage.llmCalls).toBe(before + resumed.llm.calls.length);
    expect(resumed.report.usage.llmCalls).toBeLessThan(first.report.usage.llmCalls + before);
  });

  it('goes on after the draft: no section is written again, the fact-check and follow-ups are made', async () => {
    const { first, stored } = await checkpointsOfOneRun();
    const resumed = await research({ restore: { checkpoint: stored[4]!, lastSeq: 90 } });
    const schemas = resumed.llm.calls.map((call) => call.schemaName);
    expect(schemas).not.toContain('research_section');
    expect(schemas).not.toContain('research_coherence');
    expect(schemas).not.toContain('agent_action');
    expect(schemas).toContain('research_claims');
    expect(schemas).toContain('research_follow_ups');
    expect(resumed.report.markdown).toBe(first.report.markdown);
  });

  it('goes on after the writing: the same report, with no LLM call, search or read', async () => {
    const { first, stored } = await checkpointsOfOneRun();
    const resumed = await research({ restore: { checkpoint: stored[5]!, lastSeq: 90 } });
    expect(resumed.llm.calls).toEqual([]);
    expect(resumed.world.search.queries).toEqual([]);
    expect(resumed.report.markdown).toBe(first.report.markdown);
  });
});

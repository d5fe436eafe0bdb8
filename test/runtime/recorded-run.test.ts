import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deepSearch } from '../../src/api/deep-search.js';
import { research } from '../../src/api/research.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import { createRunStore } from '../../src/runs/run-store.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { createFakeResearchWorld } from '../helpers/fake-research-world.js';
import { germanyFacts, germanyPlan } from '../helpers/germany-world.js';
import { createRoutedLlm } from '../helpers/routed-llm.js';

/** A runtime over the fake world, its runs in an in-memory store, its trust profiles in `hostHealthFile`. */
function worldRuntime(hostHealthFile?: string) {
  const world = createFakeResearchWorld(germanyFacts);
  const runStore = createRunStore({ file: ':memory:', retention: { maxRuns: 10, maxAgeDays: 10 } });
  const runtime = createRuntime({
    config: createTestConfig({ budget: { maxSteps: 40 }, retrieval: { hostHealthFile } }),
    search: world.search,
    reader: world.reader,
    createModel: () => createRoutedLlm([germanyPlan, ...world.routes]),
    runStore,
  });
  return { runtime, runStore };
}

const runModes = {
  search: (runtime: ReturnType<typeof createRuntime>, options: { record?: false }) =>
    deepSearch('How many heat pumps did Germany sell?', { runtime, ...options }),
  research: (runtime: ReturnType<typeof createRuntime>, options: { record?: false }) =>
    research('Heat pumps in Germany', { runtime, ...options }),
};

describe('the recorded run shared by deep search and research', () => {
  for (const [mode, start] of Object.entries(runModes)) {
    it(`records a ${mode} run in the run store, and none with record: false`, async () => {
      const { runtime, runStore } = worldRuntime();
      try {
        await start(runtime, { record: false }).result;
        expect(runStore.list({ limit: 10 }).runs).toEqual([]);
        const recorded = start(runtime, {});
        const { runId } = await recorded.result;
        expect(runStore.list({ limit: 10 }).runs.map((run) => [run.id, run.mode])).toEqual([[runId, mode]]);
      } finally {
        runtime.close();
      }
    });

    it(`reports on the ${mode} run's events that its domain trust profiles could not be saved`, async () => {
      // A directory where the JSON file should be: every save fails.
      const { runtime } = worldRuntime(mkdtempSync(join(tmpdir(), 'deepsearch-trust-')));
      try {
        const events: AgentEvent[] = [];
        const run = start(runtime, {});
        for await (const event of run.events) events.push(event);
        const warnings = events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
        expect(warnings).toContainEqual(expect.stringMatching(/^cannot save domain trust profiles to /));
        expect((await run.result).runId).toBe(events[0]!.runId);
      } finally {
        runtime.close();
      }
    });
  }
});

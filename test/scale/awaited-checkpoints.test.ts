// A worker's runs await their checkpoints: the real runtime (deep search and research) recording
// through the worker's run store, over a shared store whose checkpoint writes are slow. No LLM
// call is made while a checkpoint is being stored (a takeover never asks again what it holds),
// and a checkpoint refused as stale (another attempt claimed the run) stops the run before its
// next LLM call.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { StoredCheckpoint } from '../../src/agent/run-checkpoint.js';
import type { RunUsage } from '../../src/runs/run-record.js';
import { createRunStore } from '../../src/runs/run-store.js';
import { StaleAttemptError } from '../../src/runs/stale-attempt-error.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { type AsyncRunStore, toAsyncRunStore } from '../../src/scale/async-run-store.js';
import { createMemoryRunEventLog } from '../../src/scale/run-event-log.js';
import { createRunJobHandler } from '../../src/scale/run-job-handler.js';
import { createWorkerRunStore } from '../../src/scale/worker-run-store.js';
import { createScriptedLlm } from '../../src/testing/scripted-llm.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { createFakeResearchWorld } from '../helpers/fake-research-world.js';
import { germanyFacts, germanyPlan } from '../helpers/germany-world.js';
import { createRoutedLlm } from '../helpers/routed-llm.js';
import { tidesProviders, tidesQuestion, tidesSteps } from '../helpers/tides-world.js';

/** The model with its calls counted as they start. */
function counted(model: LanguageModelV3, calls: { started: number }): LanguageModelV3 {
  return new Proxy(model, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'doGenerate' && property !== 'doStream') return value;
      return (...args: unknown[]) => {
        calls.started++;
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** What each checkpoint write saw: the LLM calls started when it began and when it was stored. */
interface CheckpointWrite {
  step: number;
  callsAtStart: number;
  callsAtStored: number;
}

/** A shared store whose checkpoint writes take `delayMs`, each one recorded; `onCheckpoint` runs first. */
function slowCheckpoints(
  inner: AsyncRunStore,
  calls: { started: number },
  options: { delayMs: number; onCheckpoint?: (runId: string) => Promise<void> },
) {
  const writes: CheckpointWrite[] = [];
  const store: AsyncRunStore = {
    ...inner,
    async checkpoint(runId: string, checkpoint: StoredCheckpoint, usage: RunUsage, attempt: number) {
      const callsAtStart = calls.started;
      await options.onCheckpoint?.(runId);
      await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      await inner.checkpoint(runId, checkpoint, usage, attempt);
      writes.push({ step: checkpoint.step, callsAtStart, callsAtStored: calls.started });
    },
  };
  return { store, writes };
}

function worker(options: {
  model: LanguageModelV3;
  calls: { started: number };
  world?: ReturnType<typeof createFakeResearchWorld>;
  onCheckpoint?: (shared: AsyncRunStore, runId: string) => Promise<void>;
}) {
  const shared = toAsyncRunStore(
    createRunStore({ file: ':memory:', retention: { maxRuns: 10, maxAgeDays: 10 } }),
  );
  const slow = slowCheckpoints(shared, options.calls, {
    delayMs: 150,
    onCheckpoint: options.onCheckpoint && ((runId) => options.onCheckpoint!(shared, runId)),
  });
  const runs = createWorkerRunStore({ store: slow.store, log: createMemoryRunEventLog({ store: shared }) });
  const runtime = createRuntime({
    config: createTestConfig({ budget: { maxSteps: 40 } }),
    ...(options.world ? { search: options.world.search, reader: options.world.reader } : tidesProviders()),
    createModel: () => counted(options.model, options.calls),
    runStore: runs,
  });
  const handler = createRunJobHandler({ runtime, store: slow.store, runs });
  const post = async (id: string, mode: 'search' | 'research', question: string) => {
    await shared.begin(
      { id, owner: 'local', source: 'research', mode, question, options: {}, settings: {} },
      'queued',
    );
    return handler({ id, owner: 'local', data: {}, signal: new AbortController().signal, workerId: 'w1' });
  };
  return { shared, writes: slow.writes, post, close: () => runtime.close() };
}

describe("a worker's run awaits each checkpoint before its next LLM call", () => {
  it('deep search: no call is made while a step checkpoint is being stored', async () => {
    const llm = createScriptedLlm(tidesSteps());
    const calls = { started: 0 };
    const { shared, writes, post, close } = worker({ model: llm, calls });
    try {
      await post('run-search', 'search', tidesQuestion);
      llm.assertConsumed();
      expect(await shared.get('run-search')).toMatchObject({ status: 'completed', checkpointStep: 2 });
      expect(writes.map((write) => write.step)).toEqual([1, 2]);
      for (const write of writes) expect(write.callsAtStored).toBe(write.callsAtStart);
      // The step after each checkpoint did make its call, once the checkpoint was stored.
      expect(calls.started).toBeGreaterThan(writes.at(-1)!.callsAtStored);
    } finally {
      close();
    }
  });

  it('research: no call is made while the plan or a gathered section is being stored', async () => {
    const world = createFakeResearchWorld(germanyFacts);
    const calls = { started: 0 };
    const { shared, writes, post, close } = worker({
      model: createRoutedLlm([germanyPlan, ...world.routes]),
      calls,
      world,
    });
    try {
      await post('run-research', 'research', 'Heat pumps in Germany');
      expect(await shared.get('run-research')).toMatchObject({ status: 'completed' });
      // The plan (0 sections), the probed facts, the one section gathered, the draft, the report.
      expect(writes.length).toBeGreaterThanOrEqual(4);
      expect(writes.map((write) => write.step)).toContain(1);
      for (const write of writes) expect(write.callsAtStored).toBe(write.callsAtStart);
    } finally {
      close();
    }
  });

  it('a checkpoint refused as stale stops the run before its next LLM call; nothing more is written', async () => {
    const llm = createScriptedLlm(tidesSteps());
    const calls = { started: 0 };
    let takenOver = false;
    const { shared, writes, post, close } = worker({
      model: llm,
      calls,
      // Another worker claims the run while this one stores its first checkpoint.
      onCheckpoint: async (store, runId) => {
        if (takenOver) return;
        takenOver = true;
        await store.claim(runId, { workerId: 'w2', pid: 2 });
      },
    });
    try {
      await expect(post('run-taken', 'search', tidesQuestion)).rejects.toThrow(StaleAttemptError);
      // Only the first step's call: the visit step never asked the model.
      expect(calls.started).toBe(1);
      expect(writes).toEqual([]);
      const record = await shared.get('run-taken');
      expect(record).toMatchObject({ status: 'running', attempt: 2, checkpointStep: null });
      const events = await shared.events('run-taken');
      expect(events.some((event) => event.type === 'step-start' && event.step === 2)).toBe(false);
    } finally {
      close();
    }
  });
});

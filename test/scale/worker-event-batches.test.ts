// How a worker's run store writes events: the runs recording in one turn of the event loop go in
// one fenced statement (appendMany), a stale run's part of it writing nothing and stopping that run
// only; a step's last events go with its checkpoint, a run's last ones with its end.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-events.js';
import { createRunStore } from '../../src/runs/run-store.js';
import { StaleAttemptError } from '../../src/runs/stale-attempt-error.js';
import { type AsyncRunStore, toAsyncRunStore } from '../../src/scale/async-run-store.js';
import { createMemoryRunEventLog } from '../../src/scale/run-event-log.js';
import { createWorkerRunStore } from '../../src/scale/worker-run-store.js';
import { warningEvent as warning } from '../helpers/warning-event.js';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: null, byRole: {} };
const checkpoint = (step: number) => ({
  $schemaVersion: 1 as const,
  step,
  state: { question: 'q', pages: [] } as never,
  budget: {} as never,
});

/** The shared store with its writes counted by kind, and a worker's run store over it holding `ids`. */
async function setup(ids: string[]) {
  const inner = toAsyncRunStore(
    createRunStore({ file: ':memory:', retention: { maxRuns: 10, maxAgeDays: 10 } }),
  );
  const calls: Array<{ kind: string; runs: string[]; events: number[] }> = [];
  const seqs = (events: readonly AgentEvent[] = []) => events.map((event) => event.seq);
  const store: AsyncRunStore = {
    ...inner,
    async append(runId, events, attempt) {
      calls.push({ kind: 'append', runs: [runId], events: seqs(events) });
      await inner.append(runId, events, attempt);
    },
    async appendMany(batches) {
      calls.push({
        kind: 'appendMany',
        runs: batches.map((batch) => batch.runId),
        events: batches.flatMap((batch) => seqs(batch.events)),
      });
      return inner.appendMany(batches);
    },
    async checkpoint(runId, saved, used, attempt, events) {
      calls.push({ kind: 'checkpoint', runs: [runId], events: seqs(events) });
      await inner.checkpoint(runId, saved, used, attempt, events);
    },
    async finish(runId, outcome, attempt, events) {
      calls.push({ kind: 'finish', runs: [runId], events: seqs(events) });
      await inner.finish(runId, outcome, attempt, events);
    },
  };
  const runs = createWorkerRunStore({ store, log: createMemoryRunEventLog({ store }) });
  const failures = new Map<string, unknown>();
  for (const id of ids) {
    await inner.begin(
      { id, owner: 'local', source: 'research', mode: 'search', question: 'q', options: {}, settings: {} },
      'queued',
    );
    const attempt = await inner.claim(id, { workerId: 'w1' });
    runs.hold(id, {
      attempt,
      record: (await inner.get(id))!,
      restore: undefined,
      keepsRunning: () => false,
      onWriteFailure: (error) => failures.set(id, error),
    });
  }
  return { inner, runs, calls, failures };
}

describe("a worker's event writes", () => {
  it('writes the events of every run recorded in one turn as one statement; a stale run is refused alone', async () => {
    const { inner, runs, calls, failures } = await setup(['a', 'b', 'c']);
    await inner.claim('b', { workerId: 'w2' }); // b was taken over: this worker's attempt is stale
    runs.append('a', [warning('a', 1)]);
    runs.append('b', [warning('b', 1)]);
    runs.append('a', [warning('a', 2)]);
    runs.append('c', [warning('c', 1)]);
    await Promise.all([runs.release('a'), runs.release('b').catch(() => undefined), runs.release('c')]);
    expect(calls).toEqual([{ kind: 'appendMany', runs: ['a', 'b', 'c'], events: [1, 2, 1, 1] }]);
    expect((await inner.events('a')).map((event) => event.seq)).toEqual([1, 2]);
    expect(await inner.events('b')).toEqual([]);
    expect((await inner.events('c')).map((event) => event.seq)).toEqual([1]);
    expect([...failures.keys()]).toEqual(['b']);
    expect(failures.get('b')).toBeInstanceOf(StaleAttemptError);
    expect(failures.get('b')).toMatchObject({ code: 'stale_attempt', attempt: 1, current: 2 });
  });

  it("sends a step's last events with its checkpoint and the run's last ones with its end, in order", async () => {
    const { inner, runs, calls, failures } = await setup(['s']);
    runs.append('s', [warning('s', 1)]);
    await new Promise((resolve) => setTimeout(resolve, 20)); // a timed flush: its own batch
    runs.append('s', [warning('s', 2), warning('s', 3)]);
    const stored = runs.checkpoint('s', checkpoint(1), usage);
    runs.append('s', [warning('s', 4)]);
    await stored;
    runs.append('s', [warning('s', 5)]);
    runs.finish('s', { status: 'completed', result: { answer: 'a' }, usage });
    await runs.release('s');
    expect(calls).toEqual([
      { kind: 'appendMany', runs: ['s'], events: [1] },
      { kind: 'checkpoint', runs: ['s'], events: [2, 3, 4] },
      { kind: 'finish', runs: ['s'], events: [5] },
    ]);
    expect((await inner.events('s')).map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(await inner.get('s')).toMatchObject({ status: 'completed', lastSeq: 5 });
    expect(failures.size).toBe(0);
  });

  it('a batch in flight is written before the checkpoint that follows it', async () => {
    const { inner, runs, calls } = await setup(['o']);
    runs.append('o', [warning('o', 1)]);
    // The batch is on its way (it leaves in the turn after the one its first run asked in).
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    runs.append('o', [warning('o', 2)]);
    await runs.checkpoint('o', checkpoint(1), usage);
    await runs.release('o');
    expect(calls.map((call) => [call.kind, call.events])).toEqual([
      ['appendMany', [1]],
      ['checkpoint', [2]],
    ]);
    expect((await inner.restore('o'))!.lastSeq).toBe(2);
  });
});

// The worker's job handler over the shared run store (here the SQLite adapter, which fences like
// Postgres), with a stand-in runtime that records as the real one does, through the worker's store.
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/config-schema.js';
import { createRedactor, InputError } from '../../src/core/errors/index.js';
import { createRunStore } from '../../src/runs/run-store.js';
import type { AskOptions, DeepSearchRuntime, RunRequest } from '../../src/runtime/create-runtime.js';
import { toAsyncRunStore } from '../../src/scale/async-run-store.js';
import { JobStoppedError, type RunningJob } from '../../src/scale/job-queue.js';
import { createMemoryRunEventLog } from '../../src/scale/run-event-log.js';
import { createRunJobHandler } from '../../src/scale/run-job-handler.js';
import { createWorkerRunStore } from '../../src/scale/worker-run-store.js';
import { warningEvent as warning } from '../helpers/warning-event.js';

const retention = { maxRuns: 100, maxAgeDays: 100 };

function setup(
  ask: (
    question: string,
    options: AskOptions,
    runs: ReturnType<typeof createWorkerRunStore>,
  ) => Promise<never>,
) {
  const store = toAsyncRunStore(createRunStore({ file: ':memory:', retention }));
  const runs = createWorkerRunStore({ store, log: createMemoryRunEventLog({ store }) });
  const runtime = {
    config: configSchema.parse({}),
    redact: createRedactor(['sk-secret-key']),
    // The handler's one entry: a new run here (a resume is the takeover test's, in bullmq-takeover).
    run: (request: RunRequest) =>
      ask((request as { question: string }).question, request as AskOptions, runs),
  } as unknown as DeepSearchRuntime;
  const handler = createRunJobHandler({ runtime, store, runs });
  return { store, handler };
}

async function post(store: ReturnType<typeof setup>['store'], id: string) {
  await store.begin(
    { id, owner: 'local', source: 'research', mode: 'search', question: 'q', options: {}, settings: {} },
    'queued',
  );
}

const job = (id: string, controller = new AbortController()): RunningJob => ({
  id,
  owner: 'local',
  data: {},
  signal: controller.signal,
  workerId: 'host:1:w',
});

describe('createRunJobHandler', () => {
  it('records as failed, redacted, a run that failed before its recording began', async () => {
    const { store, handler } = setup(async () => {
      throw new InputError('the question is too long for the model (key sk-secret-key)', {
        code: 'context_length_exceeded',
      });
    });
    await post(store, 'r1');
    await handler(job('r1'));
    const record = await store.get('r1');
    expect(record).toMatchObject({
      status: 'failed',
      attempt: 1,
      error: { type: 'invalid_request_error', code: 'context_length_exceeded' },
    });
    expect(record!.error!.message).not.toContain('sk-secret-key');
  });

  it('a handed-back run keeps running with its events stored; a cancelled one ends cancelled', async () => {
    const { store, handler } = setup(async (_question, options, runs) => {
      runs.append(options.runId!, [warning(options.runId!, 1)]);
      await new Promise((resolve) => options.signal!.addEventListener('abort', resolve, { once: true }));
      // The runtime's recording ends the run as it saw it: aborted.
      runs.finish(options.runId!, { status: 'cancelled' });
      throw options.signal!.reason;
    });
    await post(store, 'r2');
    const handedBack = new AbortController();
    const first = handler(job('r2', handedBack));
    setTimeout(() => handedBack.abort(new JobStoppedError('job_handed_back')), 50);
    await first;
    expect(await store.get('r2')).toMatchObject({ status: 'running', attempt: 1, lastSeq: 1 });
    await post(store, 'r3');
    const cancelled = new AbortController();
    const second = handler(job('r3', cancelled));
    setTimeout(() => cancelled.abort(new JobStoppedError('job_cancelled')), 50);
    await second;
    expect(await store.get('r3')).toMatchObject({ status: 'cancelled', lastSeq: 1 });
  });

  it('does not run a run that ended or was deleted before a worker took its job', async () => {
    let asked = 0;
    const { store, handler } = setup(async () => {
      asked++;
      throw new Error('not reached');
    });
    await post(store, 'r4');
    await store.finish('r4', { status: 'cancelled' }, 0);
    await handler(job('r4'));
    await handler(job('never-posted'));
    expect(asked).toBe(0);
    expect(await store.get('r4')).toMatchObject({ status: 'cancelled', attempt: 0 });
  });
});

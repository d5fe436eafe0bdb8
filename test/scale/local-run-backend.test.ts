import { describe, expect, it, vi } from 'vitest';
import { InputError } from '../../src/core/errors/index.js';
import type { RunRecord } from '../../src/runs/run-record.js';
import type { RunStore } from '../../src/runs/run-store.js';
import type { DeepSearchRuntime } from '../../src/runtime/create-runtime.js';
import { createLocalRunBackend } from '../../src/scale/local-run-backend.js';
import { postRun, type RunBackend } from '../../src/scale/run-backend.js';
import { createConcurrencyLimiter } from '../../src/server/concurrency/concurrency-limiter.js';
import { createTestConfig } from '../../src/testing/test-config.js';

// Only what the backend calls: the store's begin/claim/finish/get/delete/events and the runtime's run/redact.
function fakeStore(overrides: Partial<RunStore> = {}) {
  return {
    begin: vi.fn(),
    claim: vi.fn(() => 1),
    finish: vi.fn(),
    get: vi.fn(() => undefined),
    delete: vi.fn(() => true),
    events: vi.fn(() => []),
    ...overrides,
  } as unknown as RunStore & { finish: ReturnType<typeof vi.fn> };
}

function fakeRuntime(overrides: Partial<DeepSearchRuntime> = {}) {
  return {
    redact: (text: string) => text,
    config: createTestConfig(),
    ...overrides,
  } as unknown as DeepSearchRuntime;
}

/** A stored run with a checkpoint: its job resumes it. */
const resumable = (id: string) => ({ id, owner: 'local', status: 'queued', checkpointStep: 2 }) as RunRecord;

function backendOf(
  runs: RunStore,
  runtime: DeepSearchRuntime,
  limiter = createConcurrencyLimiter({ maxConcurrent: 1, maxQueue: 0 }),
) {
  return createLocalRunBackend({
    runtime,
    runs,
    slots: limiter,
    shutdownSignal: new AbortController().signal,
    failure: (error) => ({ message: (error as Error).message, type: 'server_error', code: null }),
  });
}

/** Runs the stored run's job to its end. */
async function runJob(backend: RunBackend, id: string): Promise<void> {
  await backend.queue.enqueue({ id, owner: 'local', data: {} });
  await vi.waitFor(async () => expect(await backend.queue.has(id)).toBe(false));
  await new Promise((done) => setImmediate(done));
}

describe('the one-machine run backend', () => {
  it('gives the slot back when the run cannot be recorded', async () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 1, maxQueue: 0 });
    const store = fakeStore({
      begin: vi.fn(() => {
        throw new Error('disk full');
      }),
    });
    const backend = backendOf(store, fakeRuntime(), limiter);
    const input = {
      id: 'run_0',
      question: 'q',
      mode: 'search' as const,
      owner: 'local',
      record: { owner: 'local', source: 'research' as const, options: {} },
      config: createTestConfig(),
      data: {},
    };
    await expect(postRun(backend, input)).rejects.toThrow('disk full');
    await expect(postRun(backend, input)).rejects.toThrow('disk full');
    expect(limiter.running).toBe(0);
    expect(limiter.queued).toBe(0);
  });

  it("leaves a stored run alone when another process took it before this job's resume began", async () => {
    const store = fakeStore({ get: vi.fn(() => resumable('run_1')) });
    const refusal = new InputError('run run_1 is still running', { code: 'run_running' });
    const backend = backendOf(store, fakeRuntime({ run: vi.fn(async () => Promise.reject(refusal)) }));
    await runJob(backend, 'run_1');
    expect(store.finish).not.toHaveBeenCalled();
  });

  it('records a failed resume as failed', async () => {
    const store = fakeStore({ get: vi.fn(() => resumable('run_2')) });
    const backend = backendOf(
      store,
      fakeRuntime({ run: vi.fn(async () => Promise.reject(new Error('model down'))) }),
    );
    await runJob(backend, 'run_2');
    expect(store.finish).toHaveBeenCalledWith('run_2', expect.objectContaining({ status: 'failed' }));
  });
});

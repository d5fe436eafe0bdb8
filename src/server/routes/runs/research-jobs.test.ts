import { describe, expect, it, vi } from 'vitest';
import { InputError } from '../../../core/errors/index.js';
import type { RunStore } from '../../../runs/run-store.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { createTestConfig } from '../../../testing/test-config.js';
import { createConcurrencyLimiter } from '../../concurrency/concurrency-limiter.js';
import { createResearchJobs } from './research-jobs.js';

// Only what the jobs call: the store's begin/finish/get/events and the runtime's resume/redact.
function fakeStore(overrides: Partial<RunStore> = {}) {
  return {
    begin: vi.fn(),
    finish: vi.fn(),
    get: vi.fn(() => undefined),
    events: vi.fn(() => []),
    ...overrides,
  } as unknown as RunStore & { finish: ReturnType<typeof vi.fn> };
}

function fakeRuntime(overrides: Partial<DeepSearchRuntime> = {}) {
  return { redact: (text: string) => text, ...overrides } as unknown as DeepSearchRuntime;
}

describe('createResearchJobs', () => {
  it('gives the slot back when the run cannot be recorded', async () => {
    const limiter = createConcurrencyLimiter({ maxConcurrent: 1, maxQueue: 0 });
    const store = fakeStore({
      begin: vi.fn(() => {
        throw new Error('disk full');
      }),
    });
    const jobs = createResearchJobs({
      runtime: fakeRuntime(),
      store,
      limiter,
      shutdownSignal: new AbortController().signal,
    });
    const input = {
      question: 'q',
      mode: 'search' as const,
      owner: 'local',
      options: {},
      config: createTestConfig(),
    };
    await expect(jobs.start(input)).rejects.toThrow('disk full');
    await expect(jobs.start(input)).rejects.toThrow('disk full');
    expect(limiter.running).toBe(0);
    expect(limiter.queued).toBe(0);
  });

  it("leaves a stored run alone when another process took it before this job's resume began", async () => {
    const store = fakeStore();
    const refusal = new InputError('run run_1 is still running', { code: 'run_running' });
    const jobs = createResearchJobs({
      runtime: fakeRuntime({ run: vi.fn(async () => Promise.reject(refusal)) }),
      store,
      limiter: createConcurrencyLimiter({ maxConcurrent: 1, maxQueue: 0 }),
      shutdownSignal: new AbortController().signal,
    });
    await jobs.resume({ id: 'run_1', owner: 'local', overrides: {} });
    await jobs.get('run_1')?.done;
    await new Promise((done) => setImmediate(done));
    expect(store.finish).not.toHaveBeenCalled();
  });

  it('records a failed resume as failed', async () => {
    const store = fakeStore();
    const jobs = createResearchJobs({
      runtime: fakeRuntime({ run: vi.fn(async () => Promise.reject(new Error('model down'))) }),
      store,
      limiter: createConcurrencyLimiter({ maxConcurrent: 1, maxQueue: 0 }),
      shutdownSignal: new AbortController().signal,
    });
    await jobs.resume({ id: 'run_2', owner: 'local', overrides: {} });
    await jobs.get('run_2')?.done;
    await new Promise((done) => setImmediate(done));
    expect(store.finish).toHaveBeenCalledWith('run_2', expect.objectContaining({ status: 'failed' }));
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: the bench's world is plain JavaScript (run with tsx), without declarations
import { startBenchWorld } from '../../bench/server-bench-world.mjs';
import type { DeepSearchConfig } from '../../src/config/config-schema.js';
import { AbortedError, isAbortError, ProviderError } from '../../src/core/errors/index.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import { createRunStore } from '../../src/runs/run-store.js';
import { createRuntime, type DeepSearchRuntime } from '../../src/runtime/create-runtime.js';
import { type RunThreads, startRunThreads } from '../../src/scale/run-threads/run-threads.js';
import { toErrorResponse } from '../../src/server/http/openai-error.js';
import { createTestConfig } from '../../src/testing/test-config.js';

// Run threads as `deepsearch serve` starts them (the real entry, bundled from the sources), against
// a fake OpenAI-compatible LLM, a fake SearXNG and a one-page web on 127.0.0.1: a run's events,
// outcome, errors and cancellation must be what a run in the server's own thread gives.
describe('run threads (src/scale/run-threads/)', () => {
  let world: Awaited<ReturnType<typeof startBenchWorld>>;
  let folder: string;
  let config: DeepSearchConfig;
  let server: DeepSearchRuntime;
  let threads: RunThreads;

  beforeAll(async () => {
    world = await startBenchWorld({ latencyMs: 0 });
    folder = mkdtempSync(join(tmpdir(), 'deepsearch-run-threads-'));
    config = createTestConfig({
      llm: { baseURL: `${world.llm.url}/v1`, model: 'fake-model' },
      search: { provider: 'searxng', searxngUrl: world.searxng.url },
      reader: { provider: 'builtin', allowPrivateNetwork: true },
      retrieval: { queryRewrite: true },
      runs: { file: join(folder, 'runs.sqlite') },
      knowledge: { file: join(folder, 'knowledge.sqlite') },
    });
    server = createRuntime({ config });
    threads = startRunThreads({ config, threads: 1, store: server.runs });
  });
  afterAll(async () => {
    await threads?.close();
    server?.close();
    await world?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a deep search runs in the thread: its events come back in order, its answer, and its record in the server’s store', async () => {
    const events: AgentEvent[] = [];
    const seen: string[] = [];
    const outcome = await threads.run({
      mode: 'search',
      question: 'Who directed the Best Picture winner of 2019? (bench question t1)',
      runId: 'run-thread-1',
      record: { owner: 'key:abc', source: 'chat-completions' },
      onEvent: (event) => events.push(event),
      observers: [
        (event) => seen.push(event.type),
        () => {
          throw new Error('an observer that throws is detached, the run goes on');
        },
      ],
    });
    expect(outcome.mode).toBe('search');
    expect(outcome.mode === 'search' && outcome.result.answer).toContain('Peter Farrelly');
    expect(events.map((event) => event.type)).toEqual(seen);
    expect(events[0]!.type).toBe('run-start');
    expect(events.at(-1)!.type).toBe('run-end');
    expect(new Set(events.map((event) => event.runId))).toEqual(new Set(['run-thread-1']));
    const seqs = events.map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // Recorded by the thread's connection, read by the server's.
    const record = server.runs?.get('run-thread-1');
    expect(record).toMatchObject({ status: 'completed', owner: 'key:abc', mode: 'search' });
    expect(server.runs?.events('run-thread-1').length).toBe(events.length);
    // Its checkpoint (with the page read, whole) and its evidence, written by the server's thread.
    const restored = server.runs?.restore('run-thread-1');
    expect(restored?.checkpoint.state.pages.some((entry) => entry.page.text.includes('Peter Farrelly'))).toBe(
      true,
    );
    expect(server.runs?.sources('run-thread-1').map((source) => source.url)).toEqual([
      expect.stringContaining('/oscars'),
    ]);
  });

  it('cancelling the caller’s signal cancels the run in its thread, which records it cancelled', async () => {
    const controller = new AbortController();
    const running = threads.run({
      mode: 'search',
      // A `hold-` question's LLM call lasts until the run is cancelled.
      question: 'Who directed it? (bench question hold-1)',
      runId: 'run-thread-hold',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'run-start')
          setTimeout(() => controller.abort(new AbortedError('client gone')), 300);
      },
    });
    await expect(running).rejects.toSatisfy(isAbortError);
    expect(server.runs?.get('run-thread-hold')?.status).toBe('cancelled');
    // The thread goes on with the next run.
    const next = await threads.run({ mode: 'search', question: 'Who directed it? (bench question t2)' });
    expect(next.mode === 'search' && next.result.answer).toContain('Peter Farrelly');
  });

  it('a failure comes back as the error the server’s own runtime throws, answered the same', async () => {
    // The user's: a question longer than the model's window (400, param messages).
    const long = { mode: 'search' as const, question: 'why '.repeat(200_000), record: false as const };
    const tooLong = [
      await threads.run(long).catch((error: unknown) => error),
      await server.run(long).catch((error: unknown) => error),
    ];
    expect(tooLong[0]).toBeInstanceOf(tooLong[1]!.constructor as new () => unknown);
    expect(toErrorResponse(tooLong[0])).toEqual(toErrorResponse(tooLong[1]));
    expect(toErrorResponse(tooLong[0]).status).toBe(400);
    // A provider's: the LLM server cannot be reached (502, naming the network code).
    const down = createTestConfig({
      llm: { baseURL: 'http://127.0.0.1:9/v1', model: 'fake-model' },
      search: { provider: 'searxng', searxngUrl: world.searxng.url },
      reader: { provider: 'builtin' },
    });
    const downThreads = startRunThreads({ config: down, threads: 1 });
    const downServer = createRuntime({ config: down });
    try {
      const request = () => ({
        mode: 'search' as const,
        question: 'Who? (bench question t3)',
        record: false as const,
      });
      const inThread = await downThreads.run(request()).catch((error: unknown) => error);
      const inProcess = await downServer.run(request()).catch((error: unknown) => error);
      expect(ProviderError.isInstance(inThread)).toBe(true);
      expect((inThread as ProviderError).code).toBe('provider_unreachable');
      expect(toErrorResponse(inThread)).toEqual(toErrorResponse(inProcess));
      expect(toErrorResponse(inThread).status).toBe(502);
    } finally {
      await downThreads.close();
      downServer.close();
    }
  });
});

describe('a run thread that dies', () => {
  it('fails the runs it had, and the next run goes to a thread started again', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'deepsearch-run-thread-stand-in-'));
    // A stand-in thread: dies on a question that says so, else answers with one event.
    const entry = join(folder, 'stand-in.mjs');
    writeFileSync(
      entry,
      `import { parentPort } from 'node:worker_threads';
parentPort.on('message', (message) => {
  if (message.type === 'close') process.exit(0);
  if (message.type !== 'run') return;
  if (message.request.question === 'die') process.exit(3);
  parentPort.postMessage({ type: 'turn', writes: [], events: [{ id: message.id, events: [{ type: 'run-start', seq: 1 }] }] });
  parentPort.postMessage({ type: 'done', id: message.id, outcome: { mode: 'search', result: { answer: 'ok:' + message.request.question } } });
});
parentPort.postMessage({ type: 'ready' });`,
    );
    const store = createRunStore({ file: ':memory:', retention: { maxRuns: 10, maxAgeDays: 1 } });
    const threads = startRunThreads({
      config: createTestConfig(),
      threads: 1,
      entry: pathToFileURL(entry),
      store,
    });
    try {
      // As the thread's runtime would have begun it.
      store.begin(
        {
          id: 'r-die',
          owner: 'local',
          source: 'chat-completions',
          mode: 'search',
          question: 'die',
          options: {},
          settings: {},
        },
        'running',
        process.pid,
      );
      const died = await threads
        .run({ mode: 'search', question: 'die', runId: 'r-die' })
        .catch((error: unknown) => error);
      expect(died).toBeInstanceOf(Error);
      expect((died as { code?: string }).code).toBe('run_failed');
      expect((died as Error).message).toMatch(/thread stopped \(exit code 3\)/);
      // Ended failed in the store, not left running while the server lives.
      expect(store.get('r-die')).toMatchObject({ status: 'failed', error: { code: 'run_failed' } });
      const events: unknown[] = [];
      const next = await threads.run({
        mode: 'search',
        question: 'again',
        onEvent: (event) => events.push(event),
      });
      expect(next).toEqual({ mode: 'search', result: { answer: 'ok:again' } });
      expect(events).toEqual([{ type: 'run-start', seq: 1 }]);
    } finally {
      await threads.close();
      rmSync(folder, { recursive: true, force: true });
    }
    await expect(threads.run({ mode: 'search', question: 'after close' })).rejects.toSatisfy(isAbortError);
  });
});

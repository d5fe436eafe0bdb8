import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoredCheckpoint } from '../../agent/run-checkpoint.js';
import { ServiceUnavailableError } from '../../core/errors/index.js';
import type { AgentEvent } from '../../events/agent-events.js';
import type { NewRun } from '../../runs/run-record.js';
import { createRunStore, type RunStore } from '../../runs/run-store.js';
import { applyRunWrite, applyRunWrites, forwardRunWrites, type RunWrite } from './forwarded-run-writes.js';
import { fromThreadError } from './thread-errors.js';

const retention = { maxRuns: 100, maxAgeDays: 30 };
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: null, byRole: {} };
const newRun: NewRun = {
  id: 'r',
  owner: 'local',
  source: 'chat-completions',
  mode: 'search',
  question: 'q',
  options: {},
  settings: {},
};
const event = (seq: number): AgentEvent => ({
  type: 'warning',
  step: 1,
  message: `w${seq}`,
  runId: 'r',
  seq,
  at: seq,
});
const page = (url: string) => ({
  url,
  title: url,
  text: `text of ${url}`,
  markdown: `text of ${url}`,
  step: 1,
});
const checkpoint = (step: number, urls: string[]): StoredCheckpoint => ({
  $schemaVersion: 1,
  step,
  state: {
    question: 'q',
    currentQuestion: 'q',
    gaps: { original: 'q', pending: [], added: [] },
    diary: [],
    failedAttempts: [],
    knowledge: [],
    urls: [],
    pages: urls.map((url) => ({ keys: [url], page: page(url) })),
    searches: [],
    visited: [],
    badUrls: [],
    disabled: [],
  } as never,
  budget: {} as never,
});

/**
 * A run thread's store and the server's, on one SQLite file, joined as the threads join them: a
 * write is made by the server's store when posted (in order), its answer reaches the thread later.
 */
function threadAndServer(serverStore: RunStore, folder: string) {
  const posted: RunWrite[] = [];
  const local = createRunStore({ file: join(folder, 'runs.sqlite'), retention });
  const forwarded = forwardRunWrites(local, (id, write) => {
    posted.push(structuredClone(write));
    const reply = applyRunWrite(serverStore, id, structuredClone(write));
    if (reply) setImmediate(() => forwarded.settle(structuredClone(reply)));
  });
  return { store: forwarded.store, posted, local };
}

describe("a run thread's recording, written by the server's thread", () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  const folder = () => {
    const made = mkdtempSync(join(tmpdir(), 'deepsearch-forwarded-'));
    folders.push(made);
    return made;
  };

  it('stores what a run in one thread stores, each page sent whole once', async () => {
    const dir = folder();
    const server = createRunStore({ file: join(dir, 'runs.sqlite'), retention });
    const { store, posted, local } = threadAndServer(server, dir);
    store.begin(newRun, 'running', process.pid);
    store.append('r', [event(1), event(2)]);
    await store.checkpoint('r', checkpoint(1, ['https://a.example/', 'https://b.example/']), usage);
    await store.checkpoint(
      'r',
      checkpoint(2, ['https://a.example/', 'https://b.example/', 'https://c.example/']),
      usage,
      undefined,
      [event(3)],
    );
    store.finish('r', { status: 'completed', result: { answer: 'done' }, usage });
    // Read back through the thread's own connection, as resume reads.
    const restored = local.restore('r')!;
    expect(restored.lastSeq).toBe(3);
    expect(restored.checkpoint.step).toBe(2);
    expect(restored.checkpoint.state.pages.map((entry) => entry.page)).toEqual(
      ['https://a.example/', 'https://b.example/', 'https://c.example/'].map(page),
    );
    expect(local.get('r')).toMatchObject({ status: 'completed', result: { answer: 'done' } });
    expect(local.events('r')).toEqual([event(1), event(2), event(3)]);
    // The second checkpoint named the pages already sent by URL only.
    const second = posted.filter((write) => write.op === 'checkpoint')[1] as Extract<
      RunWrite,
      { op: 'checkpoint' }
    >;
    expect(second.checkpoint.state.pages.map((entry) => entry.page)).toEqual([
      { url: 'https://a.example/' },
      { url: 'https://b.example/' },
      page('https://c.example/'),
    ]);
    expect(posted.map((write) => write.op)).toEqual(['append', 'checkpoint', 'checkpoint', 'finish']);
  });

  it("a write the server could not make is thrown by the run's next write, a checkpoint's rejects", async () => {
    const dir = folder();
    const server = createRunStore({ file: join(dir, 'runs.sqlite'), retention });
    const down = new ServiceUnavailableError({ service: { id: 'runs', label: 'the run store' } });
    let failing = false;
    const flaky: RunStore = Object.assign(Object.create(server) as RunStore, {
      append: (...args: Parameters<RunStore['append']>) => {
        if (failing) throw down;
        return server.append(...args);
      },
      checkpoint: (...args: Parameters<RunStore['checkpoint']>) => {
        if (failing) throw down;
        return server.checkpoint(...args);
      },
    });
    const { store } = threadAndServer(flaky, dir);
    store.begin(newRun, 'running');
    failing = true;
    store.append('r', [event(1)]);
    await new Promise((resolve) => setImmediate(resolve));
    let thrown: unknown;
    try {
      store.append('r', [event(2)]);
    } catch (error) {
      thrown = error;
    }
    expect(ServiceUnavailableError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toBe("the run store can't be reached");
    // A checkpoint refused by the server rejects (the run's loop sees the failure as it would one thrown).
    const other = threadAndServer(flaky, dir);
    other.store.begin({ ...newRun, id: 's' }, 'running');
    await expect(other.store.checkpoint('s', checkpoint(1, []), usage)).rejects.toSatisfy((error: unknown) =>
      ServiceUnavailableError.isInstance(error),
    );
    // The run's end clears it: the store is back, the next run records.
    failing = false;
    expect(() => store.finish('r', { status: 'failed', usage })).toThrow("can't be reached");
    store.begin({ ...newRun, id: 'r2' }, 'running');
    store.append('r2', [{ ...event(1), runId: 'r2' }]);
    expect(server.events('r2')).toHaveLength(1);
  });

  it("a turn's writes go in one transaction: a write refused is undone alone, a failed commit keeps none", () => {
    const dir = folder();
    const server = createRunStore({ file: join(dir, 'runs.sqlite'), retention });
    for (const id of ['r', 's']) server.begin({ ...newRun, id }, 'running');
    // Attempt 1 holds r: a write fenced with attempt 0 is refused.
    expect(server.claim('r', { workerId: 'w' })).toBe(1);
    // A write's events with the JSON the thread made of them, as forwardRunWrites sends them.
    const eventsOf = (runId: string, seq: number) => {
      const events = [{ ...event(seq), runId }];
      return { events, json: events.map((one) => JSON.stringify(one)) };
    };
    const turn = (seq: number) =>
      [
        { id: 1, write: { op: 'append', runId: 'r', attempt: 0, ...eventsOf('r', seq) } },
        {
          id: 2,
          write: {
            op: 'checkpoint',
            runId: 's',
            checkpoint: checkpoint(seq, []),
            usage,
            ...eventsOf('s', seq),
          },
        },
        { id: 3, write: { op: 'append', runId: 'r', attempt: 1, ...eventsOf('r', seq + 1) } },
      ] satisfies Array<{ id: number; write: RunWrite }>;
    const batches: number[] = [];
    const counted: RunStore = Object.assign(Object.create(server) as RunStore, {
      batch: <T>(write: () => T): T => {
        batches.push(1);
        return server.batch(write);
      },
    });
    const replies = applyRunWrites(counted, turn(1));
    expect(batches).toHaveLength(1);
    // The checkpoint is answered (its promise waits), the refused append with its error.
    expect(replies.map(({ id, op }) => [id, op])).toEqual([
      [1, 'append'],
      [2, 'checkpoint'],
    ]);
    expect(fromThreadError(replies[0]!.error!)).toMatchObject({ code: 'stale_attempt' });
    expect(replies[1]!.error).toBeUndefined();
    expect(server.events('r').map((stored) => stored.seq)).toEqual([2]);
    expect(server.events('s').map((stored) => stored.seq)).toEqual([1]);
    expect(server.restore('s')?.checkpoint.step).toBe(1);

    // The commit fails (a full disk): none of the turn's writes is kept, each is answered with it.
    const full: RunStore = Object.assign(Object.create(server) as RunStore, {
      batch: <T>(write: () => T): T =>
        server.batch(() => {
          write();
          throw new ServiceUnavailableError({ service: { id: 'runs', label: 'the run store' } });
        }),
    });
    const failed = applyRunWrites(full, turn(3));
    expect(failed.map(({ id }) => id)).toEqual([1, 2, 3]);
    for (const reply of failed)
      expect(ServiceUnavailableError.isInstance(fromThreadError(reply.error!))).toBe(true);
    expect(server.events('r').map((stored) => stored.seq)).toEqual([2]);
    expect(server.events('s').map((stored) => stored.seq)).toEqual([1]);
    expect(server.restore('s')?.checkpoint.step).toBe(1);
  });
});

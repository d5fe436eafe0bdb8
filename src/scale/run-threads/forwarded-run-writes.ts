import type { StoredCheckpoint } from '../../agent/run-checkpoint.js';
import type { AgentEvent } from '../../events/agent-events.js';
import { eventJson, withEventJson } from '../../runs/event-json.js';
import type { RunUsage } from '../../runs/run-record.js';
import type { RunFinish, RunStore } from '../../runs/run-store.js';
import { fromThreadError, type ThreadError, toThreadError } from './thread-errors.js';

/** A write of a run's recording, as a run thread sends it to the server's thread. */
export type RunWrite =
  | ({ op: 'append'; runId: string; attempt?: number } & RunWriteEvents)
  | ({
      op: 'checkpoint';
      runId: string;
      checkpoint: StoredCheckpoint;
      usage: RunUsage;
      attempt?: number;
    } & Partial<RunWriteEvents>)
  | { op: 'finish'; runId: string; outcome: RunFinish; attempt?: number };

/** A write of a run's recording as a run thread sends it, with the id its answer names. */
export interface ForwardedRunWrite {
  id: number;
  write: RunWrite;
}

/** A write's events, each with the JSON the recorder already made of it (the store writes that text). */
interface RunWriteEvents {
  events: readonly AgentEvent[];
  json: readonly string[];
}

/** The events as a write carries them. */
function withJson(events: readonly AgentEvent[]): RunWriteEvents {
  return { events, json: events.map(eventJson) };
}

/** The server's answer to a write: always for a checkpoint (its promise), for the others only when one failed. */
export interface RunWriteReply {
  id: number;
  runId: string;
  op: RunWrite['op'];
  error?: ThreadError;
}

/**
 * A run thread's run store: its runs' events, checkpoints and ends are written by the server's
 * thread, in the order the runs made them (`post`), while the thread goes on with the agent's
 * work; the thread's own connection begins runs (so a store that cannot be written is known at
 * once, as before) and serves the reads. A checkpoint's promise settles once it is stored (the
 * run awaits it before its next step, as with any store that writes elsewhere). A write that
 * failed is thrown by the run's next write, as the failed write itself would have been: the
 * recorder then stops recording the run with a warning, as it does in one thread. A page is sent
 * whole with the first checkpoint that holds it and by URL after, as the store writes it once.
 */
export function forwardRunWrites(
  local: RunStore,
  post: (id: number, write: RunWrite) => void,
): { store: RunStore; settle(reply: RunWriteReply): void } {
  let nextId = 1;
  const checkpoints = new Map<number, { resolve(): void; reject(error: unknown): void }>();
  /** The first write of a run that failed, until the run's end. */
  const failed = new Map<string, unknown>();
  const sentPages = new Map<string, Set<string>>();
  const send = (write: RunWrite): number => {
    const failure = failed.get(write.runId);
    if (failure !== undefined) throw failure;
    const id = nextId++;
    post(id, write);
    return id;
  };
  const store: RunStore = Object.create(local) as RunStore;
  Object.assign(store, {
    append(runId: string, events: readonly AgentEvent[], attempt?: number) {
      if (events.length === 0) return;
      send({ op: 'append', runId, ...withJson(events), ...(attempt === undefined ? {} : { attempt }) });
    },
    checkpoint(
      runId: string,
      checkpoint: StoredCheckpoint,
      usage: RunUsage,
      attempt?: number,
      events?: readonly AgentEvent[],
    ): Promise<void> {
      const sent = sentPages.get(runId) ?? new Set<string>();
      const pages = checkpoint.state.pages.map((entry) =>
        sent.has(entry.page.url) ? { ...entry, page: { url: entry.page.url } } : entry,
      );
      const id = send({
        op: 'checkpoint',
        runId,
        checkpoint: { ...checkpoint, state: { ...checkpoint.state, pages } } as StoredCheckpoint,
        usage,
        ...(attempt === undefined ? {} : { attempt }),
        ...(events && events.length > 0 ? withJson(events) : {}),
      });
      sentPages.set(runId, sent);
      for (const entry of checkpoint.state.pages) sent.add(entry.page.url);
      return new Promise<void>((resolve, reject) => checkpoints.set(id, { resolve, reject }));
    },
    finish(runId: string, outcome: RunFinish, attempt?: number) {
      try {
        send({ op: 'finish', runId, outcome, ...(attempt === undefined ? {} : { attempt }) });
      } finally {
        sentPages.delete(runId);
        failed.delete(runId);
      }
    },
  } satisfies Partial<RunStore>);
  return {
    store,
    settle(reply) {
      const checkpoint = checkpoints.get(reply.id);
      checkpoints.delete(reply.id);
      if (!reply.error) return checkpoint?.resolve();
      const error = fromThreadError(reply.error);
      // A run's end has no next write to fail.
      if (reply.op !== 'finish' && !failed.has(reply.runId)) failed.set(reply.runId, error);
      checkpoint?.reject(error);
    },
  };
}

/**
 * Makes a turn's writes (of any of a thread's runs, in the order made) in one transaction of the
 * server's run store, so a turn costs one commit rather than one a write; answers as applyRunWrite
 * does. A write that fails is undone alone and answered with its error; if the commit fails, no
 * write of the turn is kept and every one is answered with that error.
 */
export function applyRunWrites(store: RunStore, writes: readonly ForwardedRunWrite[]): RunWriteReply[] {
  const apply = () => writes.flatMap(({ id, write }) => applyRunWrite(store, id, write) ?? []);
  if (writes.length < 2) return apply();
  try {
    return store.batch(apply);
  } catch (error) {
    const failed = toThreadError(error);
    return writes.map(({ id, write }) => ({ id, runId: write.runId, op: write.op, error: failed }));
  }
}

/**
 * Makes a run thread's write with the server's run store (SQLite, synchronous: done when the call
 * returns, so a run's end is stored before the message saying the run is done is read); answers a
 * checkpoint always (its promise waits), another write only when it failed.
 */
export function applyRunWrite(store: RunStore, id: number, write: RunWrite): RunWriteReply | undefined {
  const { runId, op } = write;
  try {
    if (write.op === 'append') store.append(runId, received(write) ?? [], write.attempt);
    else if (write.op === 'finish') store.finish(runId, write.outcome, write.attempt);
    else {
      void store.checkpoint(runId, write.checkpoint, write.usage, write.attempt, received(write));
      return { id, runId, op };
    }
    return undefined;
  } catch (error) {
    return { id, runId, op, error: toThreadError(error) };
  }
}

/** A write's events as the server's store writes them: with the JSON they came with. */
function received(write: Partial<RunWriteEvents>): AgentEvent[] | undefined {
  return write.events?.map((event, index) => withEventJson(event, write.json![index]!));
}

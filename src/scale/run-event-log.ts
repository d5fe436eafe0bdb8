import { EventEmitter, on } from 'node:events';
import type { AgentEvent } from '../events/agent-events.js';
import { finishedStatuses, type RunRecord } from '../runs/run-record.js';
import type { AsyncRunStore, EventBatch } from './async-run-store.js';

/**
 * A run's events as every process sees them: written to the run store (fenced by the attempt, so
 * a worker that lost the run adds nothing), then published live. A follower gets the stored
 * events after the id it has, then the live ones, each once and in seq order, and ends when the
 * run does: what an SSE stream on any API node sends, `Last-Event-ID` included.
 */
export interface RunEventLog {
  append(runId: string, events: readonly AgentEvent[], attempt: number): Promise<void>;
  /**
   * Appends several runs' events at once (one store transaction, each run fenced by its attempt),
   * then publishes those stored: the ids of the runs whose attempt no longer holds them.
   */
  appendMany(batches: readonly EventBatch[]): Promise<string[]>;
  /** Publishes live events the store already holds (written with a checkpoint or a run's end). */
  publish(runId: string, events: readonly AgentEvent[]): Promise<void>;
  read(runId: string, afterSeq?: number): Promise<AgentEvent[]>;
  /** Stored, then live events after `afterSeq`; ends after the run's last one, or when `signal` aborts. */
  follow(runId: string, afterSeq: number, options?: FollowOptions): AsyncIterable<AgentEvent>;
  /**
   * The run is over (its end is stored): followers end once they have its last event. `lastSeq`:
   * the run's last event, when the caller knows it (read from the store otherwise).
   */
  end(runId: string, lastSeq?: number): Promise<void>;
  close(): Promise<void>;
}

export interface FollowOptions {
  signal?: AbortSignal;
  /**
   * The run's last stored seq as the caller read it (its record's lastSeq) before following: when
   * it is not after `afterSeq`, nothing stored is missing yet and a log may skip its first read of
   * the store (every later event arrives live, and a gap in them is still filled from the store).
   */
  storedUpTo?: number;
  /**
   * Called once the run is over, with its record as the follower read it to know so (undefined:
   * deleted), before the iteration ends: what `done` reports needs no second read. Not called
   * when the follower stops for its signal, nor when the end came without a read of the record.
   */
  onEnd?: (record: RunRecord | undefined) => void;
}

/** Stored events after `cursor` that come before `before` (a gap in what arrived live). */
export async function* storedBetween(
  store: AsyncRunStore,
  runId: string,
  cursor: number,
  before = Number.POSITIVE_INFINITY,
): AsyncGenerator<AgentEvent> {
  for (const event of await store.events(runId, cursor)) if (event.seq < before) yield event;
}

/**
 * Whether the run's events are all stored: it is gone or finished. An over run's record goes to
 * `onEnd` (the follower ends with it).
 */
export async function isOver(
  store: AsyncRunStore,
  runId: string,
  onEnd?: FollowOptions['onEnd'],
): Promise<boolean> {
  const record = await store.get(runId);
  const over = !record || finishedStatuses.has(record.status);
  if (over) onEnd?.(record);
  return over;
}

/**
 * The log of one process (`deepsearch serve` on one machine, the CLI): live events go from the
 * appending job to the followers through an in-memory emitter, as the EventBus delivers them.
 * A job of this process may publish events before the store holds them (its recorder writes them
 * on its own schedule, local-run-backend.ts): the log keeps a run's published events until its
 * end, so a follower joining mid-run gets those the store does not have yet from memory.
 */
export function createMemoryRunEventLog(options: { store: AsyncRunStore }): RunEventLog {
  const { store } = options;
  const live = new EventEmitter();
  live.setMaxListeners(0); // one listener per follower, as many as there are SSE clients
  const published = new Map<string, AgentEvent[]>();
  return {
    async append(runId, events, attempt) {
      await store.append(runId, events, attempt);
      if (events.length > 0) live.emit(runId, events);
    },
    async appendMany(batches) {
      const stale = await store.appendMany(batches);
      for (const { runId, events } of batches)
        if (events.length > 0 && !stale.includes(runId)) live.emit(runId, events);
      return stale;
    },
    async publish(runId, events) {
      if (events.length === 0) return;
      const kept = published.get(runId) ?? [];
      published.set(runId, kept);
      kept.push(...events);
      live.emit(runId, events);
    },
    read: (runId, afterSeq) => store.events(runId, afterSeq),
    async *follow(runId, afterSeq, { signal, onEnd } = {}) {
      const ended = `${runId}\0end`;
      // Listening before reading the store: an event appended meanwhile is kept, not lost.
      const arrivals = on(live, runId, { signal, close: [ended] });
      let cursor = afterSeq;
      // Published here and maybe not stored yet: the store is read only up to the first of them.
      const kept = published.get(runId);
      try {
        for await (const event of storedBetween(store, runId, cursor, kept?.[0]?.seq)) {
          yield event;
          cursor = event.seq;
        }
        // By index: what is published while these go out is taken too.
        for (let index = 0; kept && index < kept.length; index++) {
          const event = kept[index]!;
          if (event.seq <= cursor) continue;
          yield event;
          cursor = event.seq;
        }
        if (!kept && (await isOver(store, runId, onEnd))) {
          yield* storedBetween(store, runId, cursor);
          return;
        }
        for await (const [events] of arrivals as AsyncIterable<[AgentEvent[]]>) {
          for (const event of events) {
            if (event.seq <= cursor) continue;
            yield event;
            cursor = event.seq;
          }
        }
      } catch (error) {
        if (!signal?.aborted) throw error;
      } finally {
        await arrivals.return?.();
      }
    },
    async end(runId) {
      published.delete(runId);
      live.emit(`${runId}\0end`);
    },
    async close() {
      published.clear();
      live.removeAllListeners();
    },
  };
}

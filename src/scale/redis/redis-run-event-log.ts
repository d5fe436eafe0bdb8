import type { AgentEvent } from '../../events/agent-events.js';
import { finishedStatuses } from '../../runs/run-record.js';
import type { AsyncRunStore } from '../async-run-store.js';
import { type FollowOptions, isOver, type RunEventLog, storedBetween } from '../run-event-log.js';
import { checkNoEviction, openRedis } from './open-redis.js';
import { createSharedStreamReader, type SharedStreamReader } from './shared-stream-reader.js';

/** What XADD answers for an id not above the stream's last: a late or repeated batch, dropped. */
const staleEntry = /ID specified in XADD is equal or smaller/;
/** How long a running run's stream is kept (refreshed at most every half of it). */
const runningTtlSeconds = 86_400;

export interface RedisRunEventLogOptions {
  url: string;
  /** Durable events (Postgres in queue mode): read first, and whenever the stream misses some. */
  store: AsyncRunStore;
  prefix?: string;
  /** How long a follower's XREAD blocks before it checks the store (default 5 s). */
  blockMs?: number;
  /** Entries kept per stream, about (default 10 000): a follower further behind reads the store. */
  maxLength?: number;
  /** A finished run's stream stays this long for late followers (default 10 min), a running one's a day. */
  endedTtlSeconds?: number;
}

/**
 * The log of a deployment: events in the run store, and live in a Redis stream per run
 * (`<prefix>:events:<runId>`), which a follower on any API node reads with XREAD BLOCK from the
 * last id it has (the followers of one process share one blocking read: shared-stream-reader.ts).
 * The stream only ever holds stored events, so whatever it lacks (trimmed, expired, a batch
 * dropped as late) is read back from the store: a gap in the ids it delivers is filled from
 * there, and a follower whose stream is gone goes on from the store alone.
 */
export async function createRedisRunEventLog(options: RedisRunEventLogOptions): Promise<RunEventLog> {
  const { store } = options;
  const prefix = options.prefix ?? 'deepsearch';
  const redis = await openRedis(options.url, { name: 'events', autoPipelining: true });
  try {
    await checkNoEviction(redis, options.url);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  const key = (runId: string) => `${prefix}:events:${runId}`;
  const blockMs = options.blockMs ?? 5000;
  const reader = createSharedStreamReader({ redis, prefix, blockMs });
  const maxLength = options.maxLength ?? 10_000;
  // Runs this process set their stream's time to live for, until when it needs no refresh.
  const ttlSetUntil = new Map<string, number>();
  const publish = async (runId: string, events: readonly AgentEvent[]) => {
    if (events.length === 0) return;
    // One entry per batch, its id the batch's last seq (`<seq>-0`): Redis refuses an id not above
    // the stream's last, so a batch arriving late (a worker that lost the run) or twice is
    // dropped, never reordered; a follower takes from it the events after the ones it has.
    const adding = redis
      .xadd(key(runId), 'MAXLEN', '~', maxLength, `${events.at(-1)!.seq}-0`, 'b', JSON.stringify(events))
      .catch((error: Error) => {
        if (!staleEntry.test(error.message)) throw error;
      });
    // The stream's time to live is set once per run and process (refreshed after half of it),
    // not with every batch: XADD keeps it.
    const now = Date.now();
    if ((ttlSetUntil.get(runId) ?? 0) < now) {
      if (ttlSetUntil.size > 10_000)
        for (const [id, until] of ttlSetUntil) if (until < now) ttlSetUntil.delete(id);
      ttlSetUntil.set(runId, now + (runningTtlSeconds * 1000) / 2);
      await Promise.all([adding, redis.expire(key(runId), runningTtlSeconds)]);
    } else await adding;
  };
  return {
    async append(runId, events, attempt) {
      await store.append(runId, events, attempt);
      await publish(runId, events);
    },
    async appendMany(batches) {
      const stale = await store.appendMany(batches);
      // The entries of every run go out together (the connection pipelines them: one write).
      await Promise.all(
        batches
          .filter((batch) => !stale.includes(batch.runId))
          .map((batch) => publish(batch.runId, batch.events)),
      );
      return stale;
    },
    publish,
    read: (runId, afterSeq) => store.events(runId, afterSeq),
    follow: (runId, afterSeq, follow = {}) =>
      followStream({ ...follow, reader, store, key: key(runId), runId, afterSeq, blockMs }),
    async end(runId, knownLastSeq) {
      ttlSetUntil.delete(runId);
      const lastSeq = knownLastSeq ?? (await store.get(runId))?.lastSeq ?? 0;
      // The end mark sorts right after the last event (`<lastSeq>-1`).
      await redis
        .multi()
        .xadd(key(runId), `${lastSeq}-1`, 'end', '1')
        .expire(key(runId), options.endedTtlSeconds ?? 600)
        .exec();
    },
    async close() {
      reader.close();
      redis.disconnect();
    },
  };
}

/** One follower: the store, then the stream from the last seq delivered, gaps filled from the store. */
async function* followStream(
  input: FollowOptions & {
    reader: SharedStreamReader;
    store: AsyncRunStore;
    key: string;
    runId: string;
    afterSeq: number;
    blockMs: number;
  },
): AsyncGenerator<AgentEvent> {
  const { store, runId, signal, onEnd } = input;
  let cursor = input.afterSeq;
  // Subscribed before the store is read: an event stored meanwhile arrives live (or is skipped as
  // already read), never falls between the two.
  const subscription = input.reader.subscribe(input.key, `${cursor}-0`);
  try {
    // A caller that saw no stored event after its position (a new run's first follower) skips the
    // read: a worker stores each event before it adds it to the stream, so whatever is stored from
    // then on is in the stream too, or shows as a gap there, or at the latest in the quiet check.
    if (input.storedUpTo === undefined || input.storedUpTo > cursor)
      for await (const event of storedBetween(store, runId, cursor)) {
        yield event;
        cursor = event.seq;
      }
    // How long to wait for live entries before asking the store: blockMs, then longer and longer
    // while the run says nothing (a queued run waiting for a worker), so waiting costs little.
    let quietMs = input.blockMs;
    while (!signal?.aborted) {
      const entries = await subscription.next(quietMs, signal);
      if (signal?.aborted) return;
      if (entries.length === 0) {
        // Nothing live for a while: the stream may be gone, or the worker's end mark lost.
        const record = await store.get(runId);
        const over = !record || finishedStatuses.has(record.status);
        if (over) onEnd?.(record);
        const behind = over || (record?.lastSeq ?? 0) > cursor;
        if (behind)
          for await (const event of storedBetween(store, runId, cursor)) {
            yield event;
            cursor = event.seq;
          }
        if (over) return;
        quietMs = behind ? input.blockMs : Math.min(quietMs * 2, input.blockMs * 6);
        continue;
      }
      quietMs = input.blockMs;
      // An end mark (`<seq>-1`) of an earlier attempt (a cancelled run resumed since) ends nothing:
      // the reading goes on after it.
      for (const [id, fields] of entries) {
        if (id.endsWith('-1')) {
          if (!(await isOver(store, runId, onEnd))) continue;
          // The mark's id holds the run's last seq: the store is read only if some are missing.
          if (Number.parseInt(id, 10) > cursor) yield* storedBetween(store, runId, cursor);
          return;
        }
        const fresh = entryEvents(fields).filter((event) => event.seq > cursor);
        if (fresh.length === 0) continue;
        if (fresh[0]!.seq > cursor + 1)
          for await (const missed of storedBetween(store, runId, cursor, fresh[0]!.seq)) {
            yield missed;
            cursor = missed.seq;
          }
        for (const event of fresh) {
          if (event.seq <= cursor) continue;
          yield event;
          cursor = event.seq;
        }
      }
    }
  } catch (error) {
    if (!signal?.aborted) throw error;
  } finally {
    subscription.stop();
  }
}

/** The events of a stream entry: a batch (`b`, a JSON array), or one event (`e`, an earlier release's). */
function entryEvents(fields: string[]): AgentEvent[] {
  const value = fields[1]!;
  return fields[0] === 'b' ? (JSON.parse(value) as AgentEvent[]) : [JSON.parse(value) as AgentEvent];
}

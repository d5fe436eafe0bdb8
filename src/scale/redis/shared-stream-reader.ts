import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A stream entry as XREAD returns it: its id and its fields (name, value, ...). */
export type StreamEntry = [id: string, fields: string[]];

/** One follower's view of one stream: the entries after its position, as they arrive. */
export interface StreamSubscription {
  /** The entries that arrived since the last call, waiting up to `timeoutMs` for one; [] if none came. */
  next(timeoutMs: number, signal?: AbortSignal): Promise<StreamEntry[]>;
  stop(): void;
}

export interface SharedStreamReader {
  subscribe(key: string, position: string): StreamSubscription;
  close(): void;
}

interface Subscriber {
  position: string;
  deliver(entries: StreamEntry[]): void;
  fail(error: unknown): void;
}

interface Followed {
  /** Where the next read of this stream starts: the earliest position one of its subscribers needs. */
  position: string;
  subscribers: Set<Subscriber>;
}

/**
 * Every follower of one process reads through one blocking connection: a single XREAD BLOCK
 * over all the streams followed, each from the earliest position one of its followers needs, the
 * entries handed to each follower after its own position. A blocking read holds its connection,
 * so a follower joining while one waits wakes it with an entry on this process's wake stream
 * (`<prefix>:events:wake:<id>`, read with the others; plain commands, where CLIENT UNBLOCK may be
 * refused by a managed Redis), coalesced to one per read. What it saves over a connection per
 * follower: the connection's setup per SSE client, and one XREAD per follower per batch of events.
 */
export function createSharedStreamReader(options: {
  /** The process's ordinary connection: the reader's is duplicated from it; wakes are sent on it. */
  redis: Redis;
  prefix: string;
  /** How long one read blocks (the followers' own timeouts are theirs). */
  blockMs: number;
  /**
   * After a read that brought entries, how long to let more arrive before the next (default: 1 ms
   * per stream followed, 20 to 100 ms): one read then carries the batches of several runs instead
   * of one read per batch. A read names every stream followed, so its cost grows with them: the
   * wait does too, keeping what reading costs per second about flat, while a node following a few
   * runs relays their events within 20 ms. (A worker sends a run's events every 250 ms at most.)
   */
  gatherMs?: number;
}): SharedStreamReader {
  const { redis } = options;
  const wakeKey = `${options.prefix}:events:wake:${randomUUID()}`;
  const gatherMs = () => options.gatherMs ?? Math.min(100, Math.max(20, followed.size));
  const followed = new Map<string, Followed>();
  let reader: Redis | undefined;
  // The wake stream is this process's own (a fresh key): every entry in it is a wake to read.
  let wakePosition = '0-0';
  let reading: Map<string, string> | undefined; // the read in flight: key -> the position it reads from
  let woken = false;
  let closed = false;

  const wake = () => {
    if (!reading || woken) return;
    woken = true;
    redis
      .multi()
      .xadd(wakeKey, 'MAXLEN', '1', '*', 'w', '1')
      .pexpire(wakeKey, options.blockMs * 4)
      .exec()
      .catch(() => undefined); // the read ends by itself within blockMs
  };

  const readOnce = async (connection: Redis) => {
    const from = new Map([...followed].map(([key, stream]) => [key, stream.position]));
    reading = from;
    woken = false;
    let reply: Array<[string, StreamEntry[]]> | null;
    let delivered = false;
    try {
      reply = (await connection.xread(
        'BLOCK',
        options.blockMs,
        'STREAMS',
        wakeKey,
        ...from.keys(),
        wakePosition,
        ...from.values(),
      )) as Array<[string, StreamEntry[]]> | null;
    } finally {
      reading = undefined;
    }
    for (const [key, entries] of reply ?? []) {
      if (key === wakeKey) wakePosition = entries.at(-1)![0];
      else {
        deliver(key, from.get(key)!, entries);
        delivered = true;
      }
    }
    return delivered;
  };

  const deliver = (key: string, readFrom: string, entries: StreamEntry[]) => {
    const stream = followed.get(key);
    if (!stream || entries.length === 0) return;
    // A follower that joined meanwhile from an earlier position gets its entries from the next read.
    if (stream.position === readFrom) stream.position = entries.at(-1)![0];
    for (const subscriber of stream.subscribers) {
      if (compareIds(readFrom, subscriber.position) > 0) continue;
      const fresh = entries.filter(([id]) => compareIds(id, subscriber.position) > 0);
      if (fresh.length === 0) continue;
      subscriber.position = fresh.at(-1)![0];
      subscriber.deliver(fresh);
    }
  };

  let running = false;
  const run = async () => {
    if (!reader) {
      reader = redis.duplicate({ connectionName: 'deepsearch:events-reader', enableAutoPipelining: false });
      reader.on('error', () => undefined); // a read in flight reports its own
    }
    try {
      while (followed.size > 0 && !closed) {
        const wait = gatherMs();
        if ((await readOnce(reader)) && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } catch (error) {
      // The followers fail as their own reads did (each reads the store again when it is retried).
      for (const stream of followed.values())
        for (const subscriber of stream.subscribers) subscriber.fail(error);
      followed.clear();
    } finally {
      running = false;
    }
  };

  return {
    subscribe(key, position) {
      const subscriber = createSubscriber(position);
      const stream = followed.get(key);
      if (!stream) followed.set(key, { position, subscribers: new Set([subscriber.entry]) });
      else {
        stream.subscribers.add(subscriber.entry);
        if (compareIds(position, stream.position) < 0) stream.position = position;
      }
      const inFlight = reading?.get(key);
      if (reading && (inFlight === undefined || compareIds(position, inFlight) < 0)) wake();
      if (!running) {
        running = true;
        void run();
      }
      return {
        next: subscriber.next,
        stop() {
          const current = followed.get(key);
          current?.subscribers.delete(subscriber.entry);
          if (current?.subscribers.size === 0) followed.delete(key);
        },
      };
    },
    close() {
      closed = true;
      reader?.disconnect();
    },
  };
}

/** A follower's buffer: entries delivered wait here until it asks for them. */
function createSubscriber(position: string) {
  let buffered: StreamEntry[] = [];
  let failure: { error: unknown } | undefined;
  let waiting: (() => void) | undefined;
  const entry: Subscriber = {
    position,
    deliver(entries) {
      buffered.push(...entries);
      waiting?.();
    },
    fail(error) {
      failure = { error };
      waiting?.();
    },
  };
  const take = () => {
    if (failure) throw failure.error;
    const taken = buffered;
    buffered = [];
    return taken;
  };
  const next = async (timeoutMs: number, signal?: AbortSignal): Promise<StreamEntry[]> => {
    if (buffered.length > 0 || failure || signal?.aborted) return take();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        waiting = undefined;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done, { once: true });
      waiting = done;
    });
    return take();
  };
  return { entry, next };
}

/** Orders two stream ids (`<ms>-<seq>`), without splitting them (called per entry and follower). */
function compareIds(a: string, b: string): number {
  const aDash = a.indexOf('-');
  const bDash = b.indexOf('-');
  return (
    Number(a.slice(0, aDash)) - Number(b.slice(0, bDash)) ||
    Number(a.slice(aDash + 1)) - Number(b.slice(bDash + 1))
  );
}

import type { Context } from 'hono';
import type { AgentEvent } from '../../../events/agent-events.js';
import type { RunStore } from '../../../runs/run-store.js';
import { type EventStream, streamEvents } from '../../http/event-stream-response.js';
import type { ServerEnv } from '../../server-env.js';
import type { ResearchJob } from './research-jobs.js';

/**
 * A run's events as Server-Sent Events: those stored after `after` first, then live ones while
 * its job runs, then `event: done` with the final status. Each event's `id` is its seq, so a
 * client that reconnects with Last-Event-ID gets exactly what it missed. Reading the history and
 * subscribing happen in one synchronous turn, so no event falls between them.
 */
export function streamRunEvents(
  c: Context<ServerEnv>,
  input: {
    runId: string;
    after: number;
    store: RunStore;
    job: ResearchJob | undefined;
    heartbeatMs: number;
    /** The status `done` reports, as GET shows it (a run whose process is gone is failed). */
    finalStatus: () => string;
  },
): Response {
  const { job, store, runId } = input;
  c.header('X-Accel-Buffering', 'no');
  return streamEvents(c, async (stream) => {
    const queue: AgentEvent[] = job ? job.eventsAfter(input.after) : store.events(runId, input.after);
    let wake: (() => void) | undefined;
    const notify = () => {
      wake?.();
      wake = undefined;
    };
    const unsubscribe = job?.subscribe((event) => {
      queue.push(event);
      notify();
    });
    let over = !job;
    void job?.done.then(() => {
      over = true;
      notify();
    });
    stream.onAbort(notify);
    // Comments keep proxies from closing a connection while a long LLM call says nothing.
    const ping = setInterval(() => {
      void stream.write(': ping\n\n');
    }, input.heartbeatMs);
    const events = createEventWriter(stream);
    try {
      while (!stream.aborted) {
        const event = queue.shift();
        if (event) {
          await events.write(event);
          continue;
        }
        if (over) break;
        await events.flush();
        // What arrived while the write went out is taken before waiting for more.
        if (queue.length > 0 || over || stream.aborted) continue;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      if (!stream.aborted) events.send(doneEvent(input.finalStatus()));
      await events.flush();
    } finally {
      clearInterval(ping);
      unsubscribe?.();
    }
  });
}

/**
 * A run's events as Server-Sent Events from a follower of the event log (queue mode: stored
 * events, then the run's live stream, whichever node runs it), then `event: done` with the final
 * status. The follower stops when the client goes; when this node shuts down, the stream ends with
 * a `retry` hint and the client reconnects (Last-Event-ID) to another node.
 */
export function streamFollowedEvents(
  c: Context<ServerEnv>,
  input: {
    follow: (signal: AbortSignal) => AsyncIterable<AgentEvent> | Promise<readonly AgentEvent[]>;
    heartbeatMs: number;
    shutdownSignal: AbortSignal;
    finalStatus: () => Promise<string>;
  },
): Response {
  c.header('X-Accel-Buffering', 'no');
  return streamEvents(c, async (stream) => {
    const stop = new AbortController();
    const signal = AbortSignal.any([stop.signal, input.shutdownSignal]);
    stream.onAbort(() => stop.abort());
    const ping = setInterval(() => {
      void stream.write(': ping\n\n');
    }, input.heartbeatMs);
    const events = createEventWriter(stream);
    try {
      for await (const event of await input.follow(signal)) {
        if (stream.aborted) break;
        await events.write(event);
      }
      // The last events, then `done` (or the retry hint), go out in one write.
      if (input.shutdownSignal.aborted) events.send('retry: 1000\n\n');
      else if (!stream.aborted) events.send(doneEvent(await input.finalStatus()));
      await events.flush();
    } finally {
      clearInterval(ping);
      stop.abort();
    }
  });
}

/** Text waiting for a write beyond this is written before more is taken (a slow client holds the rest back). */
const eventWriterHighWater = 64 * 1024;

/**
 * Writes SSE events (as writeSSE formats them) in one write per turn of the event loop rather than
 * one per event: a batch arriving at once (the stored events, a worker's flush) costs the
 * connection one write, and each write is a system call.
 */
function createEventWriter(stream: EventStream) {
  let text = '';
  let written: Promise<unknown> | undefined;
  let lastWrite: Promise<unknown> = Promise.resolve();
  const writeOut = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    const chunk = text;
    text = '';
    written = undefined;
    // stream.write never rejects (a client gone is `aborted`); the writes go out in order.
    if (stream.aborted) return;
    lastWrite = stream.write(chunk);
    await lastWrite;
  };
  /** Adds SSE text to what goes out next. */
  const send = (more: string) => {
    text += more;
    written ??= writeOut();
  };
  return {
    async write(event: AgentEvent) {
      // An event's type is a fixed name and its JSON has no line break: one `data:` line each.
      send(`event: ${event.type}\ndata: ${JSON.stringify(event)}\nid: ${event.seq}\n\n`);
      if (text.length > eventWriterHighWater) await written;
    },
    send,
    /** Settles once what was written so far went out. */
    flush: async () => {
      await (written ?? lastWrite);
    },
  };
}

/** The `done` event: the run's final status. */
function doneEvent(status: string): string {
  return `event: done\ndata: ${JSON.stringify({ status })}\n\n`;
}

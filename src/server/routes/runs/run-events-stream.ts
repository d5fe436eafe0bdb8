import type { Context } from 'hono';
import type { AgentEvent } from '../../../events/agent-events.js';
import { type EventStream, streamEvents } from '../../http/event-stream-response.js';
import type { ServerEnv } from '../../server-env.js';

/**
 * A run's events as Server-Sent Events from a follower of the event log (stored events after the
 * client's Last-Event-ID, then the live ones, whichever process runs it), then `event: done` with
 * the final status. Each event's `id` is its seq, so a client that reconnects gets exactly what it
 * missed. The follower stops when the client goes; when `shutdownSignal` fires (a queue-mode node
 * stopping), the stream ends with a `retry` hint and the client reconnects to another node.
 */
export function streamFollowedEvents(
  c: Context<ServerEnv>,
  input: {
    follow: (signal: AbortSignal) => AsyncIterable<AgentEvent> | Promise<readonly AgentEvent[]>;
    heartbeatMs: number;
    shutdownSignal: AbortSignal;
    finalStatus: () => Promise<string>;
    /** What each event's text passes through before a client sees it (secrets, internal addresses). */
    redact: (text: string) => string;
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
    const events = createEventWriter(stream, input.redact);
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
function createEventWriter(stream: EventStream, redact: (text: string) => string) {
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
      send(`event: ${event.type}\ndata: ${redact(JSON.stringify(event))}\nid: ${event.seq}\n\n`);
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

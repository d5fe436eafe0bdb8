import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AgentEvent } from '../events/agent-events.js';
import type { RunStore } from '../runs/run-store.js';
import type { ResearchJob } from './research-jobs.js';
import type { ServerEnv } from './server-env.js';

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
  return streamSSE(c, async (stream) => {
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
    try {
      while (!stream.aborted) {
        const event = queue.shift();
        if (event) {
          await stream.writeSSE({ id: String(event.seq), event: event.type, data: JSON.stringify(event) });
          continue;
        }
        if (over) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      if (!stream.aborted) {
        await stream.writeSSE({ event: 'done', data: JSON.stringify({ status: input.finalStatus() }) });
      }
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
    follow: (signal: AbortSignal) => AsyncIterable<AgentEvent>;
    heartbeatMs: number;
    shutdownSignal: AbortSignal;
    finalStatus: () => Promise<string>;
  },
): Response {
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    const stop = new AbortController();
    const signal = AbortSignal.any([stop.signal, input.shutdownSignal]);
    stream.onAbort(() => stop.abort());
    const ping = setInterval(() => {
      void stream.write(': ping\n\n');
    }, input.heartbeatMs);
    try {
      for await (const event of input.follow(signal)) {
        if (stream.aborted) break;
        await stream.writeSSE({ id: String(event.seq), event: event.type, data: JSON.stringify(event) });
      }
      if (input.shutdownSignal.aborted) await stream.write('retry: 1000\n\n');
      else if (!stream.aborted)
        await stream.writeSSE({ event: 'done', data: JSON.stringify({ status: await input.finalStatus() }) });
    } finally {
      clearInterval(ping);
      stop.abort();
    }
  });
}

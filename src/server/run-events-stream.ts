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

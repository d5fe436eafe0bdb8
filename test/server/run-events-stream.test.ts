// The SSE writer of a run's events writes what is ready in one write per turn of the event loop;
// these pin what that must not cost: an event arriving while a write goes out, with the run's end
// right behind it, is still sent before `done`, and the output is writeSSE's format.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-events.js';
import type { AsyncRunStore } from '../../src/scale/async-run-store.js';
import { createMemoryRunEventLog } from '../../src/scale/run-event-log.js';
import { streamFollowedEvents } from '../../src/server/routes/runs/run-events-stream.js';
import type { ServerEnv } from '../../src/server/server-env.js';

const event = (seq: number): AgentEvent => ({
  type: 'warning',
  step: 1,
  message: `m${seq}`,
  runId: 'r',
  seq,
  at: seq,
});

/** The SSE body's events as (id, event, data) triples, and its `done`. */
function parse(body: string) {
  return body
    .split('\n\n')
    .filter((block) => block.trim() && !block.startsWith(':'))
    .map((block) =>
      Object.fromEntries(
        block
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      ),
    );
}

describe('run events over SSE', () => {
  it('an in-process run: events arriving while a write goes out, the end right behind them, all come before done', async () => {
    // The stream follows the run, then writes event 1 on the next turn: events 2 and 3 and the
    // end come before that write has gone out.
    const store = {
      async events(_runId: string, afterSeq = 0) {
        setImmediate(() => {
          void log.publish('r', [event(2)]);
          void log.publish('r', [event(3)]);
          void log.end('r');
        });
        return [event(1)].filter((stored) => stored.seq > afterSeq);
      },
      get: async () => ({ status: 'running' }),
    } as unknown as AsyncRunStore;
    const log = createMemoryRunEventLog({ store });
    const app = new Hono<ServerEnv>().get('/events', (c) =>
      streamFollowedEvents(c, {
        follow: (signal) => log.follow('r', 0, { signal }),
        heartbeatMs: 60_000,
        redact: (text: string) => text,
        shutdownSignal: new AbortController().signal,
        finalStatus: async () => 'completed',
      }),
    );
    const blocks = parse(await (await app.request('/events')).text());
    expect(blocks.map((block) => block.id ?? block.event)).toEqual(['1', '2', '3', 'done']);
    expect(blocks[1]).toEqual({ event: 'warning', data: JSON.stringify(event(2)), id: '2' });
    expect(blocks.at(-1)).toEqual({ event: 'done', data: '{"status":"completed"}' });
  });

  it('a followed run: a batch is written whole, in order, then done', async () => {
    const app = new Hono<ServerEnv>().get('/events', (c) =>
      streamFollowedEvents(c, {
        async *follow() {
          for (const seq of [1, 2, 3, 4]) yield event(seq);
          await new Promise((resolve) => setTimeout(resolve, 20));
          yield event(5);
        },
        heartbeatMs: 60_000,
        redact: (text: string) => text,
        shutdownSignal: new AbortController().signal,
        finalStatus: async () => 'completed',
      }),
    );
    const blocks = parse(await (await app.request('/events')).text());
    expect(blocks.map((block) => block.id ?? block.event)).toEqual(['1', '2', '3', '4', '5', 'done']);
    expect(blocks[4]).toEqual({ event: 'warning', data: JSON.stringify(event(5)), id: '5' });
  });

  it("a finished run's stored events and its done go out in one write", async () => {
    const app = new Hono<ServerEnv>().get('/events', (c) =>
      streamFollowedEvents(c, {
        follow: async () => [event(1), event(2)],
        heartbeatMs: 60_000,
        redact: (text: string) => text,
        shutdownSignal: new AbortController().signal,
        finalStatus: async () => 'completed',
      }),
    );
    const reader = (await app.request('/events')).body!.getReader();
    const chunks: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read())
      chunks.push(new TextDecoder().decode(read.value));
    expect(chunks).toHaveLength(1);
    expect(parse(chunks[0]!).map((block) => block.id ?? block.event)).toEqual(['1', '2', 'done']);
  });
});

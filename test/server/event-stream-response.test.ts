// The SSE response every streamed route writes through (run events, chat completions, responses),
// served by the real Node adapter on 127.0.0.1: the wire format and headers of hono's streamSSE,
// a slow client holding writes back, a client leaving aborting the stream.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type EventStream, streamEvents } from '../../src/server/http/event-stream-response.js';

let close: (() => void) | undefined;
afterEach(() => close?.());

/** Serves one streamed route on 127.0.0.1; its URL. */
async function serveStream(run: (stream: EventStream) => Promise<void>): Promise<string> {
  const app = new Hono().get('/events', (c) => streamEvents(c, run));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
}

describe('streamEvents', () => {
  it("writes streamSSE's format and headers, and ends the response when the handler is done", async () => {
    const url = await serveStream(async (stream) => {
      await stream.write(': ping\n\n');
      await stream.writeSSE({ event: 'warning', data: '{"a":1}', id: 1 });
      await stream.writeSSE({ data: 'two\nlines' });
    });
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(
      ': ping\n\nevent: warning\ndata: {"a":1}\nid: 1\n\ndata: two\ndata: lines\n\n',
    );
  });

  it('refuses an event name with a line break (it would forge another field)', async () => {
    let refused: unknown;
    const url = await serveStream(async (stream) => {
      refused = await stream.writeSSE({ event: 'a\nid: 9', data: 'x' }).catch((error: unknown) => error);
    });
    expect(await (await fetch(url)).text()).toBe('');
    expect(String(refused)).toMatch(/line break/);
  });

  it('a client that reads nothing holds the writes back; one that leaves aborts the stream', async () => {
    let written = 0;
    let aborted = false;
    const url = await serveStream(async (stream) => {
      stream.onAbort(() => {
        aborted = true;
      });
      const chunk = 'x'.repeat(64 * 1024);
      while (!stream.aborted && written < 10_000) {
        await stream.write(`data: ${chunk}\n\n`);
        written += 1;
      }
    });
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    expect(response.status).toBe(200);
    // The socket's buffers fill up and the handler waits: far fewer than the 10 000 writes (640 MB).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const held = written;
    expect(held).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(written - held).toBeLessThan(5);
    controller.abort();
    await vi.waitUntil(() => aborted, { timeout: 5000 });
    expect(written).toBeLessThan(1000);
  });

  it('writes made while another waits for the client (a ping beside an event) all go on once it reads', async () => {
    const finished: string[] = [];
    const url = await serveStream(async (stream) => {
      const chunk = 'x'.repeat(64 * 1024);
      // Fill the queue until a write has to wait, then write twice more without waiting.
      let filled = 0;
      while (filled < 1000) {
        const write = stream.write(`data: ${chunk}\n\n`);
        const waited = await Promise.race([
          write.then(() => false),
          new Promise((r) => setTimeout(r, 50, true)),
        ]);
        if (waited) {
          await Promise.all([
            write.then(() => finished.push('event')),
            stream.write(': ping\n\n').then(() => finished.push('ping')),
            stream.writeSSE({ data: 'last' }).then(() => finished.push('last')),
          ]);
          return;
        }
        filled += 1;
      }
    });
    const response = await fetch(url);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const text = await response.text();
    expect(text.endsWith(': ping\n\ndata: last\n\n')).toBe(true);
    expect(finished.sort()).toEqual(['event', 'last', 'ping']);
  });
});

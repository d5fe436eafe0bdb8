// A worker's fetch for LLM calls: under the cap a call holds its place until its body is read, a
// streamed one included; other requests pass at once. A real HTTP server on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configSchema } from '../../src/config/config-schema.js';
import { createSemaphore } from '../../src/core/semaphore.js';
import { createLlmCallFetch } from '../../src/scale/llm-call-fetch.js';

let server: Server;
let base: string;
const log: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    log.push(`start ${request.url}`);
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('first part ');
    // The body ends a while after the headers: a streamed answer.
    setTimeout(() => {
      log.push(`end ${request.url}`);
      response.end('last part');
    }, 300);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('createLlmCallFetch', () => {
  it('holds a place per LLM call until its body is read; other requests pass at once', async () => {
    const config = configSchema.parse({ llm: { baseURL: `${base}/v1`, model: 'm' } });
    const limit = createSemaphore({ max: 1 });
    const capped = createLlmCallFetch({ fetch: globalThis.fetch, limit, config });
    log.length = 0;
    const calls = ['/v1/chat/completions?1', '/v1/chat/completions?2'].map(async (path) =>
      (await capped(`${base}${path}`)).text(),
    );
    // While the first call's body streams, a page of another server path is not held back.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const page = await capped(`${base}/page`);
    expect(limit.active).toBe(1);
    expect(limit.waiting).toBe(1);
    expect(await Promise.all(calls)).toEqual(['first part last part', 'first part last part']);
    await page.text();
    // The second call started only once the first one's body had ended.
    const order = log.filter((line) => line.includes('completions'));
    expect(order).toEqual([
      'start /v1/chat/completions?1',
      'end /v1/chat/completions?1',
      'start /v1/chat/completions?2',
      'end /v1/chat/completions?2',
    ]);
    expect(limit.active).toBe(0);
  });

  it('frees the place when the caller cancels the body or the call fails', async () => {
    const config = configSchema.parse({ llm: { baseURL: `${base}/v1`, model: 'm' } });
    const limit = createSemaphore({ max: 1 });
    const capped = createLlmCallFetch({ fetch: globalThis.fetch, limit, config });
    const response = await capped(`${base}/v1/chat/completions?cancelled`);
    await response.body!.cancel();
    await vi.waitUntil(() => limit.active === 0, { timeout: 2000 });
    const failing = createLlmCallFetch({
      fetch: async () => {
        throw new Error('connection refused');
      },
      limit,
      config,
    });
    await expect(failing(`${base}/v1/chat/completions`)).rejects.toThrow('connection refused');
    expect(limit.active).toBe(0);
  });
});

import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchProvider } from '../../src/providers/spec/search-provider.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { waitFor } from '../helpers/server-harness.js';

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

/** Every query finds one new page, so the agent always has another search to make. */
function createEndlessSearch(): SearchProvider & { calls: string[] } {
  const calls: string[] = [];
  return {
    id: 'endless',
    calls,
    async search(query) {
      calls.push(query);
      return [
        { url: `https://example.org/${encodeURIComponent(query)}`, title: query, snippet: `About ${query}.` },
      ];
    },
  };
}

describe('after a client disconnects, no new LLM request starts', () => {
  it('repeated trials: the client leaves while an LLM call is answered; the fake LLM gets no request after it', async () => {
    let chatRequests = 0;
    let onLlmRequest: () => void = () => undefined;
    const llm: FakeOpenAiServer = await startFakeOpenAi({
      respond: (request) => {
        chatRequests++;
        onLlmRequest();
        // The reply comes just after the client has gone: the next step must see the cancellation.
        return {
          content: JSON.stringify({
            think: 'Search more.',
            action: 'search',
            search: { queries: [`query number ${request.index}`] },
          }),
          delayMs: 30,
        };
      },
    });
    closers.push(() => llm.close());
    const search = createEndlessSearch();
    const config = createTestConfig({
      llm: { baseURL: `${llm.url}/v1`, model: 'fake-model' },
      server: { port: 0 },
    });
    const logs: Array<Record<string, unknown>> = [];
    const server: RunningServer = await startServer({
      runtime: createRuntime({ config, search, reader: createFakeReader({}) }),
      settings: config.server,
      log: (line) => logs.push(JSON.parse(line) as Record<string, unknown>),
    });
    closers.push(() => server.close({ graceMs: 0 }));

    const trials = 12;
    for (let trial = 0; trial < trials; trial++) {
      const stream = trial % 2 === 0;
      // Chat requests only: the client also asks the server for its context window (GET /v1/models).
      const leaveAt = chatRequests + 1 + (trial % 3);
      // A raw socket: destroying it closes the connection at once, before the LLM's reply is even
      // scheduled, so the test does not depend on how fast a client library tears its socket down.
      const client = connect(Number(new URL(server.url).port), '127.0.0.1');
      onLlmRequest = () => {
        if (chatRequests === leaveAt) client.destroy();
      };
      const logged = logs.length;
      const body = JSON.stringify({
        model: 'deepsearch',
        messages: [{ role: 'user', content: `Trial ${trial}: what is new?` }],
        stream,
      });
      client.on('error', () => undefined);
      client.write(
        `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await waitFor(() => logs.length > logged, 15_000);
      expect(logs.at(-1)).toMatchObject({ outcome: 'cancelled' });
      const searches = search.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(chatRequests, `trial ${trial}: LLM requests after the client left`).toBe(leaveAt);
      expect(search.calls.length, `trial ${trial}: searches after the run was cancelled`).toBe(searches);
    }
    expect(await (await fetch(`${server.url}/ready`)).json()).toMatchObject({ running: 0 });
    expect(logs.every((line) => Number(line.status) < 500)).toBe(true);
  });
});

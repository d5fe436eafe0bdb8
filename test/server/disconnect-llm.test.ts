import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchProvider } from '../../src/providers/spec/search-provider.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { startRunThreads, withRunThreads } from '../../src/scale/run-threads/run-threads.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
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
    specificationVersion: 'v1',
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
  /** A fake LLM that always asks for another search, replying 30 ms after each request. */
  async function startSearchingLlm() {
    const state: { chatRequests: number; onLlmRequest: () => void } = {
      chatRequests: 0,
      onLlmRequest: () => undefined,
    };
    const llm: FakeOpenAiServer = await startFakeOpenAi({
      respond: (request) => {
        state.chatRequests++;
        state.onLlmRequest();
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
    return { llm, state };
  }

  /** Trials of a client leaving while an LLM call is answered: no LLM request or search after it. */
  async function leaveDuringCalls(
    server: RunningServer,
    logs: Array<Record<string, unknown>>,
    state: { chatRequests: number; onLlmRequest: () => void },
    searches: () => number,
  ) {
    const trials = 12;
    for (let trial = 0; trial < trials; trial++) {
      const stream = trial % 2 === 0;
      // Chat requests only: the client also asks the server for its context window (GET /v1/models).
      const leaveAt = state.chatRequests + 1 + (trial % 3);
      // A raw socket: destroying it closes the connection at once, before the LLM's reply is even
      // scheduled, so the test does not depend on how fast a client library tears its socket down.
      const client = connect(Number(new URL(server.url).port), '127.0.0.1');
      state.onLlmRequest = () => {
        if (state.chatRequests === leaveAt) client.destroy();
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
      const searched = searches();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(state.chatRequests, `trial ${trial}: LLM requests after the client left`).toBe(leaveAt);
      expect(searches(), `trial ${trial}: searches after the run was cancelled`).toBe(searched);
    }
    expect(await (await fetch(`${server.url}/ready`)).json()).toMatchObject({ running: 0 });
    expect(logs.every((line) => Number(line.status) < 500)).toBe(true);
  }

  it('repeated trials: the client leaves while an LLM call is answered; the fake LLM gets no request after it', async () => {
    const { llm, state } = await startSearchingLlm();
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
    await leaveDuringCalls(server, logs, state, () => search.calls.length);
  });

  it('the same with the runs in a run thread, which reads its cancellations before each request (no turn of its event loop)', async () => {
    const { llm, state } = await startSearchingLlm();
    // Every query finds one new page, so the agent always has another search to make.
    const searxng = await startFakeSearxng({
      results: (query) => [
        { url: `https://example.org/${encodeURIComponent(query)}`, title: query, content: `About ${query}.` },
      ],
    });
    closers.push(() => searxng.close());
    const folder = mkdtempSync(join(tmpdir(), 'deepsearch-disconnect-threads-'));
    closers.push(async () => rmSync(folder, { recursive: true, force: true }));
    const config = createTestConfig({
      llm: { baseURL: `${llm.url}/v1`, model: 'fake-model' },
      search: { provider: 'searxng', searxngUrl: searxng.url },
      reader: { provider: 'builtin' },
      runs: { file: join(folder, 'runs.sqlite') },
      knowledge: { file: join(folder, 'knowledge.sqlite') },
      server: { port: 0 },
    });
    const runtime = createRuntime({ config });
    const threads = startRunThreads({ config, threads: 1, store: runtime.runs });
    const logs: Array<Record<string, unknown>> = [];
    const server: RunningServer = await startServer({
      runtime: withRunThreads(runtime, threads),
      settings: config.server,
      log: (line) => logs.push(JSON.parse(line) as Record<string, unknown>),
    });
    closers.push(async () => {
      await server.close({ graceMs: 0 });
      await threads.close();
      runtime.close();
    });
    await leaveDuringCalls(server, logs, state, () => searxng.requests.length);
  });
});

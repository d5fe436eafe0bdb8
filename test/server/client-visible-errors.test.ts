import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors/index.js';
import { hiddenAddress } from '../../src/server/http/client-redactor.js';
import { sseData, startTestServer, type TestServer } from '../helpers/server-harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What an LLM behind a proxy says when it is down: the addresses of both (nothing is contacted). */
const upstream = () =>
  new ProviderError(
    'the LLM server failed: connect ECONNREFUSED 10.9.8.7:8080 (http://10.9.8.7:8080/v1/chat/completions via proxy.internal:3128)',
    { providerId: 'openai-compatible', code: 'provider_unreachable' },
  );

describe('what a client sees of a failed run', () => {
  it("the run's events and its error name no internal address (LLM, proxy) and no proxy password; the log gets no password", async () => {
    server = await startTestServer({
      steps: [{ error: upstream() }],
      config: {
        llm: { baseURL: 'http://10.9.8.7:8080/v1', model: 'fake-model' },
        network: { proxy: 'http://deploy:hunter2-proxy@proxy.internal:3128' },
      },
    });
    const created = await fetch(`${server.url}/v1/research`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'What is the capital of France?' }),
    });
    const { id } = (await created.json()) as { id: string };
    let run: { status: string; error?: { code: string; message: string } } = { status: 'queued' };
    for (let tries = 0; tries < 200 && !['failed', 'completed'].includes(run.status); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      run = await (await fetch(`${server.url}/v1/research/${id}`)).json();
    }
    expect(run.status).toBe('failed');
    const stream = await (await fetch(`${server.url}/v1/research/${id}/events`)).text();
    const events = sseData(stream).map((data) => JSON.parse(data) as { type?: string; error?: string });
    // The failed call is told, in the words of what failed, with the addresses hidden.
    const call = events.find((event) => event.type === 'llm-call');
    expect(call?.error).toBe(
      `the LLM server failed: connect ECONNREFUSED ${hiddenAddress} (${hiddenAddress}/chat/completions via ${hiddenAddress})`,
    );
    for (const text of [stream, JSON.stringify(run)]) {
      expect(text).not.toMatch(/10\.9\.8\.7|proxy\.internal|hunter2/);
    }
    expect(run.error?.code).toBe('provider_unreachable');
    // The server's own log keeps what failed, for whoever runs it (the password still masked).
    expect(JSON.stringify(server.logs)).not.toContain('hunter2');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { passingEvaluation } from '../helpers/passing-evaluation.js';
import { sseData } from '../helpers/server-harness.js';

const llmKey = 'sk-llm-canary-7f3a9c';
const braveKey = 'brave-canary-41d2e8';
const serverKey = 'server-canary-0b6e55';
const canaries = [llmKey, braveKey, serverKey];

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

/** A Brave API that answers 'who won' and refuses every other query, echoing the token it got (and another key, as a leaky proxy might). */
async function startLeakyBrave(): Promise<FakeHttpServer> {
  const server = await startFakeHttpServer((request, response) => {
    if (request.query.q === 'who won') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const result = {
        title: 'Winners',
        url: 'https://example.org/winners',
        description: 'The winners list.',
      };
      response.end(JSON.stringify({ web: { results: [result] } }));
      return;
    }
    response.writeHead(400, { 'content-type': 'application/json' });
    const token = String(request.headers['x-subscription-token']);
    response.end(
      JSON.stringify({ error: { message: `bad request for token ${token} (upstream ${llmKey})` } }),
    );
  });
  closers.push(() => server.close());
  return server;
}

async function startApi(llm: FakeOpenAiServer, brave: FakeHttpServer) {
  const config = createTestConfig({
    llm: { baseURL: `${llm.url}/v1`, model: 'fake-model', apiKey: llmKey },
    search: { provider: 'brave', apiKeys: { brave: braveKey }, baseURLs: { brave: brave.url } },
    reader: { provider: 'builtin' },
    server: { port: 0, apiKeys: [serverKey] },
  });
  const logs: string[] = [];
  const server: RunningServer = await startServer({
    runtime: createRuntime({ config }),
    settings: config.server,
    log: (line) => logs.push(line),
  });
  closers.push(() => server.close({ graceMs: 0 }));
  const post = (body: Record<string, unknown>) =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${serverKey}` },
      body: JSON.stringify({
        model: 'deepsearch',
        messages: [{ role: 'user', content: 'Who won?' }],
        ...body,
      }),
    });
  return { post, logs };
}

const agentReply = (object: unknown) => ({ content: JSON.stringify(object) });

describe('configured secrets echoed by upstream services go nowhere', () => {
  it('the 502 body and the log carry neither the LLM key nor any other configured key', async () => {
    const llm = await startFakeOpenAi({
      respond: (request) => ({
        status: 500,
        body: { error: { message: `internal error while checking key ${request.headers.authorization}` } },
      }),
    });
    closers.push(() => llm.close());
    const { post, logs } = await startApi(llm, await startLeakyBrave());
    const response = await post({});
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text).error.message).toMatch(/request id [0-9a-f-]{36}$/);
    for (const canary of canaries) expect(text).not.toContain(canary);
    expect(llm.requests[0]!.headers.authorization).toBe(`Bearer ${llmKey}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const log = logs.join('\n');
    expect(log).toContain('"status":502');
    expect(log).toContain('checking key Bearer [redacted]');
    for (const canary of canaries) expect(log).not.toContain(canary);
  });

  it("a failed search's echo reaches neither the streamed reasoning nor the next prompt's diary", async () => {
    const llm = await startFakeOpenAi({
      routes: {
        agent_action: [
          agentReply({
            think: 'Look it up.',
            action: 'search',
            search: { queries: ['who won', 'who lost'] },
          }),
          agentReply({
            think: 'Search failed; answer from what I know.',
            action: 'answer',
            answer: { text: 'Nobody knows.', references: [] },
          }),
        ],
        ...passingEvaluation(agentReply, 'fine'),
      },
      respond: () => agentReply({ think: 'done', pass: true, improvement: '' }),
    });
    closers.push(() => llm.close());
    const brave = await startLeakyBrave();
    const { post, logs } = await startApi(llm, brave);
    const response = await post({ stream: true });
    expect(response.status).toBe(200);
    const stream = sseData(await response.text()).join('\n');
    expect(brave.requests.length).toBeGreaterThan(0);
    // The failure is reported, with the keys replaced.
    expect(stream).toContain('search failed');
    expect(stream).toContain('[redacted]');
    const prompts = llm.requests.map((request) => `${request.system}\n${request.prompt}`);
    expect(prompts.slice(1).some((prompt) => prompt.includes('[redacted]'))).toBe(true);
    for (const canary of canaries) {
      expect(stream).not.toContain(canary);
      for (const prompt of prompts) expect(prompt).not.toContain(canary);
      expect(logs.join('\n')).not.toContain(canary);
    }
  });
});

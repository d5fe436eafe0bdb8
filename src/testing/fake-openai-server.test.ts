import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeOpenAiOptions, type FakeOpenAiServer, startFakeOpenAi } from './fake-openai-server.js';

const servers: FakeOpenAiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: FakeOpenAiOptions): Promise<FakeOpenAiServer> {
  const server = await startFakeOpenAi(options);
  servers.push(server);
  return server;
}

function compatibleModel(server: FakeOpenAiServer) {
  return createOpenAICompatible({ name: 'fake', baseURL: `${server.url}/v1`, includeUsage: true })(
    'fake-model',
  );
}

/** A request body as a client sends it, asking for a named JSON schema (or none). */
function chatBody(system: string, schemaName?: string) {
  return JSON.stringify({
    model: 'fake-model',
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: 'hello' },
    ],
    ...(schemaName
      ? { response_format: { type: 'json_schema', json_schema: { name: schemaName, schema: {} } } }
      : {}),
  });
}

async function postChat(server: FakeOpenAiServer, body: string) {
  const response = await fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const json = (await response.json()) as {
    choices: Array<{ message: { content: string } }>;
    error: { message: string; type: string; code: string };
  };
  return { status: response.status, json };
}

describe('startFakeOpenAi', () => {
  it('streams deltas, reasoning and a final usage chunk that the AI SDK reassembles', async () => {
    const content = 'The capital of France is Paris, a long answer split into deltas.';
    const server = await serve({
      replies: [{ content, reasoning: 'Easy one.', usage: { prompt_tokens: 9, completion_tokens: 14 } }],
    });
    const result = streamText({ model: compatibleModel(server), prompt: 'capital?' });
    expect(await result.text).toBe(content);
    expect(await result.reasoningText).toBe('Easy one.');
    expect(await result.usage).toMatchObject({ inputTokens: 9, outputTokens: 14, totalTokens: 23 });

    const sent = server.requests[0]!;
    expect(sent.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    server.assertConsumed();
  });

  it('writes the SSE stream in the documented shape, ending with data: [DONE]', async () => {
    const server = await serve({
      replies: [{ content: 'Hi there', usage: { prompt_tokens: 3, completion_tokens: 2 } }],
    });
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'm',
        messages: [],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text()).trim().split('\n\n');
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, '')));
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toBe('Hi there');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, total_tokens: 5 } });
  });

  it('sends no usage chunk when the client did not ask for one', async () => {
    const server = await serve({ replies: [{ content: 'Hi' }] });
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [], stream: true }),
    });
    const text = await response.text();
    expect(text).not.toContain('usage');
    expect(text).toContain('data: [DONE]');
  });

  it('answers OpenAI .chat models too, with usage in the non-streaming reply', async () => {
    const server = await serve({
      replies: [{ content: 'ok', usage: { prompt_tokens: 5, completion_tokens: 1 } }],
    });
    const model = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'k' }).chat('gpt-4.1-mini');
    const result = await generateText({ model, prompt: 'say ok' });
    expect(result.text).toBe('ok');
    expect(result.usage).toMatchObject({ inputTokens: 5, outputTokens: 1 });
    expect(server.requests[0]!.prompt).toBe('say ok');
  });

  it('routes by JSON-schema name, then by system prompt, then to the default queue', async () => {
    const server = await serve({
      routes: {
        agent_action: [{ content: 'agent 1' }, { content: 'agent 2' }],
        evaluate_definitive: () => ({ content: 'always definitive' }),
      },
      systemRoutes: { final_answer: 'Write the final answer', agent_action: /deep search agent/ },
      replies: [{ content: 'default' }],
    });
    const contentOf = async (body: string) => (await postChat(server, body)).json.choices[0]!.message.content;
    expect(await contentOf(chatBody('x', 'agent_action'))).toBe('agent 1');
    expect(await contentOf(chatBody('x', 'evaluate_definitive'))).toBe('always definitive');
    expect(await contentOf(chatBody('x', 'evaluate_definitive'))).toBe('always definitive');
    expect(await contentOf(chatBody('You are a deep search agent.'))).toBe('agent 2');
    expect(await contentOf(chatBody('Something else'))).toBe('default');
    expect(server.requests.map((request) => request.route)).toEqual([
      'agent_action',
      'evaluate_definitive',
      'evaluate_definitive',
      'agent_action',
      undefined,
    ]);
    server.assertConsumed();
  });

  it('answers an unexpected call with a 500 and records the problem', async () => {
    const server = await serve({ routes: { agent_action: [] }, replies: [] });
    const routed = await postChat(server, chatBody('x', 'agent_action'));
    const unrouted = await postChat(server, chatBody('x'));
    expect([routed.status, unrouted.status]).toEqual([500, 500]);
    expect(routed.json.error.message).toContain('unexpected call #1');
    expect(server.problems).toEqual([
      expect.stringContaining('#1 POST /v1/chat/completions (route agent_action): no reply left'),
      expect.stringContaining('#2 POST /v1/chat/completions: no reply left'),
    ]);
    expect(() => server.assertConsumed()).toThrow(/unexpected call/);
  });

  it('reports replies that were never used, in the queue and in routes', async () => {
    const server = await serve({ routes: { final_answer: [{ content: 'a' }] }, replies: [{ content: 'b' }] });
    expect(server.remaining).toBe(1);
    expect(() => server.assertConsumed()).toThrow(/1 queued repl\(ies\) never used; route final_answer/);
  });

  it('lists models, refuses wrong keys like OpenAI and flags unknown paths', async () => {
    const server = await serve({ apiKey: 'sk-right', models: ['qwen2.5:7b'], replies: [] });
    const models = await (await fetch(`${server.url}/v1/models`)).json();
    expect(models).toMatchObject({ object: 'list', data: [{ id: 'qwen2.5:7b', object: 'model' }] });

    const refused = await postChat(server, chatBody('x'));
    expect(refused.status).toBe(401);
    expect(refused.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_api_key' });
    expect(server.problems).toEqual([]); // a refused key is what the test asked for

    const wrongPath = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{}' });
    expect(wrongPath.status).toBe(404);
    expect(server.problems).toEqual([expect.stringContaining('unknown path POST /chat/completions')]);
  });

  it('sends error replies with OpenAI error bodies and headers, and raw bodies as given', async () => {
    const server = await serve({
      replies: [
        { status: 429, headers: { 'retry-after': '7' } },
        { raw: 'not json', status: 200 },
      ],
    });
    const limited = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: chatBody('x') });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } });
    const raw = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: chatBody('x') });
    expect(await raw.text()).toBe('not json');
    server.assertConsumed();
  });

  it('holds a silent reply until the client gives up', async () => {
    const server = await serve({ replies: [{ delayMs: 30_000 }] });
    const started = Date.now();
    const request = fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: chatBody('x'),
      signal: AbortSignal.timeout(200),
    });
    await expect(request).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

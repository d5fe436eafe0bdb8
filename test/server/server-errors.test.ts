import { APICallError } from '@ai-sdk/provider';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { postChat, sseData, startTestServer, type TestServer, waitFor } from '../helpers/server-harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'deepsearch', messages: [{ role: 'user', content: 'What is 1+1?' }], ...extra });

async function expectOpenAiError(
  response: Response,
  status: number,
  expected: { code?: string; param?: string | null; type?: string },
) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toContain('application/json');
  const body = (await response.json()) as { error: Record<string, unknown> };
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error).toMatchObject(expected);
  return body.error;
}

describe('refused requests: a 4xx with OpenAI’s error body, never an error inside a 200', () => {
  it('400 for a body that is not JSON', async () => {
    server = await startTestServer();
    await expectOpenAiError(await postChat(server.url, '{"model": "deepsearch", '), 400, {
      code: 'invalid_json',
      type: 'invalid_request_error',
    });
  });

  it('400 naming the field for wrong types, no messages, or no user message', async () => {
    server = await startTestServer();
    await expectOpenAiError(await postChat(server.url, ask({ max_steps: 'ten' })), 400, {
      param: 'max_steps',
    });
    await expectOpenAiError(await postChat(server.url, ask({ messages: [] })), 400, { param: 'messages' });
    await expectOpenAiError(await postChat(server.url, ask({ only_hostnames: ['not a host'] })), 400, {
      param: 'only_hostnames.0',
    });
    await expectOpenAiError(await postChat(server.url, ask({ reasoning_effort: 'extreme' })), 400, {
      param: 'reasoning_effort',
    });
    await expectOpenAiError(await postChat(server.url, ask({ since: 'last week' })), 400, { param: 'since' });
    const noUserMessage = ask({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'assistant', content: 'hello' },
      ],
    });
    await expectOpenAiError(await postChat(server.url, noUserMessage), 400, {
      param: 'messages',
      code: 'invalid_messages',
    });
    const badSchema = ask({
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'bogus' } } },
    });
    await expectOpenAiError(await postChat(server.url, badSchema), 400, { param: 'response_format' });
    await expectOpenAiError(await postChat(server.url, ask({ search_provider: 'nowhere' })), 400, {
      param: 'search_provider',
    });
    expect(server.llm.calls).toEqual([]);
  });

  it('400 naming the variable to set for a search provider the server has no key for, on every route', async () => {
    const serperKey = 'serper-canary-7f3a91';
    server = await startTestServer({ config: { search: { apiKeys: { serper: serperKey } } } });
    const post = (path: string, body: Record<string, unknown>) =>
      fetch(`${server!.url}/v1/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const messages = [{ role: 'user', content: 'What is 1+1?' }];
    const refusals = [
      await post('chat/completions', { model: 'deepsearch', messages, search_provider: 'brave' }),
      await post('responses', { model: 'deepsearch', input: 'What is 1+1?', search_provider: 'brave' }),
      await post('research', { question: 'What is 1+1?', search_provider: 'brave' }),
    ];
    for (const response of refusals) {
      const error = await expectOpenAiError(response, 400, {
        type: 'invalid_request_error',
        param: 'search_provider',
        code: 'search_provider_not_configured',
      });
      expect(JSON.stringify(error)).not.toContain(serperKey);
      expect(error.message).toBe(
        "search provider 'brave' needs an API key, which this server does not have: set BRAVE_API_KEY " +
          "where the server runs, or leave search_provider out to search with the server's default (fake)",
      );
    }
    // A SearXNG the server has no instance for is refused the same way.
    const searxng = await expectOpenAiError(
      await post('research', { question: 'q', search_provider: 'searxng' }),
      400,
      { param: 'search_provider', code: 'search_provider_not_configured' },
    );
    expect(searxng.message).toMatch(/needs a SearXNG instance.*set DEEPSEARCH_SEARXNG_URL/);
    expect(server.llm.calls).toEqual([]);
    expect(server.rawLogs.join('\n')).not.toContain(serperKey);
  });

  it('404 for an unknown model, through the official client', async () => {
    server = await startTestServer();
    const error = await server.client.chat.completions
      .create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
  });

  it('413 for a body over the size limit', async () => {
    server = await startTestServer({ server: { maxBodyBytes: 2048 } });
    const response = await postChat(server.url, ask({ padding: 'x'.repeat(4096) }));
    await expectOpenAiError(response, 413, { code: 'request_too_large' });
  });

  it('401 without a key or with a wrong one; the key never reaches the log', async () => {
    const apiKey = 'sk-test-secret-1234567890';
    server = await startTestServer({ apiKey, steps: [scriptedStep.answer('2')] });
    await expectOpenAiError(await postChat(server.url, ask()), 401, {
      type: 'authentication_error',
      code: 'invalid_api_key',
    });
    const wrong = new OpenAI({
      baseURL: `${server.url}/v1`,
      apiKey: 'sk-test-wrong-0000000000',
      maxRetries: 0,
    });
    const error = await wrong.chat.completions
      .create({ model: 'deepsearch', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    const models = await server.client.models.list();
    expect(models.data.map((model) => model.id)).toEqual([
      'deepsearch',
      'deepsearch-direct',
      'deepsearch-research',
    ]);
    const completion = await server.client.chat.completions.create({
      model: 'deepsearch',
      messages: [{ role: 'user', content: 'What is 1+1?' }],
    });
    expect(completion.choices[0]!.message.content).toBe('2');
    expect(server.logs.map((line) => line.status)).toEqual([401, 401, 200, 200]);
    expect(server.rawLogs.join('\n')).not.toContain('secret');
    expect(server.rawLogs.join('\n')).not.toContain('wrong');
  });

  it('429 with Retry-After when every slot and the queue are taken', async () => {
    server = await startTestServer({
      server: { maxConcurrent: 1, maxQueue: 0 },
      steps: [{ ...scriptedStep.answer('2'), delayMs: 300 }],
    });
    const first = server.client.chat.completions.create({
      model: 'deepsearch',
      messages: [{ role: 'user', content: 'What is 1+1?' }],
    });
    await waitFor(() => server!.llm.calls.length === 1);
    const error = await server.client.chat.completions
      .create({ model: 'deepsearch', messages: [{ role: 'user', content: 'And 2+2?' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(
      Number((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')),
    ).toBeGreaterThanOrEqual(1);
    expect((await first).choices[0]!.message.content).toBe('2');
  });

  it('queues a request while a slot is busy and runs it when the slot frees', async () => {
    server = await startTestServer({
      server: { maxConcurrent: 1, maxQueue: 1 },
      steps: [{ ...scriptedStep.answer('2'), delayMs: 200 }, scriptedStep.answer('4')],
    });
    const request = (content: string) =>
      server!.client.chat.completions.create({ model: 'deepsearch', messages: [{ role: 'user', content }] });
    const answers = await Promise.all([request('What is 1+1?'), request('What is 2+2?')]);
    expect(answers.map((answer) => answer.choices[0]!.message.content)).toEqual(['2', '4']);
  });

  it('502 with the provider error when the LLM fails before anything is streamed', async () => {
    const failure = new APICallError({
      message: 'upstream exploded',
      url: 'http://127.0.0.1:9/v1/chat/completions',
      requestBodyValues: {},
      statusCode: 500,
    });
    server = await startTestServer({ steps: [{ ...scriptedStep.answer('2'), error: failure }] });
    const error = await server.client.chat.completions
      .create({ model: 'deepsearch', messages: [{ role: 'user', content: 'What is 1+1?' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
  });

  it('500 with a generic message and the request id when the server has no usable LLM configuration; the setting is named in the log', async () => {
    server = await startTestServer({ config: { llm: { model: undefined } } });
    const response = await postChat(server.url, ask());
    const requestId = response.headers.get('x-request-id');
    const error = await expectOpenAiError(response, 500, { type: 'server_error' });
    expect(error.message).toBe(
      `the server's configuration cannot serve this request; request id ${requestId}`,
    );
    expect(error.message).not.toContain('DEEPSEARCH_');
    await waitFor(() => server!.logs.length > 0);
    expect(server.logs.at(-1)).toMatchObject({ id: requestId, status: 500 });
    expect(String(server.logs.at(-1)!.error)).toMatch(/no model set .* DEEPSEARCH_LLM_MODEL/);
  });

  // A 5xx midway is a failed step the run moves past (test/agent/error-policy.test.ts); a rejected
  // key midway is fatal, and the stream must say so.
  it('ends a stream whose run fails midway with an error chunk and [DONE]', async () => {
    const failure = new APICallError({
      message: 'invalid api key',
      url: 'http://127.0.0.1:9/v1/chat/completions',
      requestBodyValues: {},
      statusCode: 401,
    });
    server = await startTestServer({
      steps: [scriptedStep.search(['1+1']), { ...scriptedStep.answer('2'), error: failure }],
    });
    const response = await postChat(server.url, ask({ stream: true }));
    expect(response.status).toBe(200);
    const data = sseData(await response.text());
    expect(data.at(-1)).toBe('[DONE]');
    const error = JSON.parse(data.at(-2)!) as { error: { type: string; message: string } };
    expect(error.error.type).toBe('upstream_error');
    expect(data.slice(0, -2).some((chunk) => chunk.includes('reasoning_content'))).toBe(true);
    const client = server.client;
    server.llm.push(scriptedStep.search(['1+1']), { ...scriptedStep.answer('2'), error: failure });
    const stream = await client.chat.completions.create({
      model: 'deepsearch',
      messages: [{ role: 'user', content: 'What is 1+1?' }],
      stream: true,
    });
    const caught = await (async () => {
      for await (const _chunk of stream) {
        // reading until the error chunk
      }
    })().catch((thrown: unknown) => thrown);
    expect(caught).toBeInstanceOf(OpenAI.APIError);
    expect(server.logs.at(-1)).toMatchObject({
      status: 200,
      outcome: 'failed',
      errorCode: 'provider_auth',
    });
  });
});

describe('other endpoints', () => {
  it('GET /health, /ready and /v1/models; unknown paths get a JSON 404', async () => {
    server = await startTestServer();
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${server.url}/ready`)).json()).toMatchObject({
      status: 'ready',
      running: 0,
      queued: 0,
    });
    const models = await server.client.models.list();
    expect(models.data).toEqual([
      { id: 'deepsearch', object: 'model', created: 0, owned_by: 'deepsearch' },
      { id: 'deepsearch-direct', object: 'model', created: 0, owned_by: 'deepsearch' },
      { id: 'deepsearch-research', object: 'model', created: 0, owned_by: 'deepsearch' },
    ]);
    await expectOpenAiError(await fetch(`${server.url}/v1/embeddings`, { method: 'POST' }), 404, {
      type: 'not_found_error',
    });
  });

  it('answers CORS preflights for the configured origins only', async () => {
    server = await startTestServer({
      server: { corsOrigins: ['https://chat.example'], apiKeys: ['sk-test-cors-1234567890'] },
    });
    const preflight = (origin: string) =>
      fetch(`${server!.url}/v1/chat/completions`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const allowed = await preflight('https://chat.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://chat.example');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const other = await preflight('https://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('matches an origin set with capitals or a trailing slash in the CORS headers as the guard does', async () => {
    server = await startTestServer({ server: { corsOrigins: ['https://Chat.example/'] } });
    const preflight = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://chat.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://chat.example');
    const models = await fetch(`${server.url}/v1/models`, { headers: { origin: 'https://chat.example' } });
    expect(models.status).toBe(200);
    expect(models.headers.get('access-control-allow-origin')).toBe('https://chat.example');
  });
});

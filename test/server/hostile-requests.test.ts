import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { chatBody, postChat, startTestServer, type TestServer, waitFor } from '../helpers/server-harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ask = chatBody;
const withSchema = (schema: unknown) =>
  ask({ response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } } });

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { message: string; code: string; param: string | null } })
    .error;
}

/** Sends a request with exactly these headers (fetch would set Host and Origin itself). */
function rawRequest(
  url: string,
  options: { method?: string; path?: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${url}${options.path ?? '/v1/chat/completions'}`,
      { method: options.method ?? 'POST', headers: options.headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

describe('response_format schemas are bounded and refused before any work', () => {
  it('400 for 20,000 allOf entries, 10,000 levels of nesting or 5,000 properties; no LLM call, /health stays up', async () => {
    server = await startTestServer();
    const deep = `${'{"type":"object","properties":{"a":'.repeat(10_000)}{"type":"string"}${'}}'.repeat(10_000)}`;
    const hostile = [
      withSchema({ allOf: Array.from({ length: 20_000 }, () => ({ type: 'object' })) }),
      // Built as text: JSON.stringify itself cannot go 10,000 levels deep.
      withSchema('DEEP').replace('"DEEP"', deep),
      withSchema({
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, { type: 'string' }])),
      }),
    ];
    for (const body of hostile) {
      const responses = await Promise.all(Array.from({ length: 5 }, () => postChat(server!.url, body)));
      for (const response of responses) {
        expect(response.status).toBe(400);
        expect(await errorOf(response)).toMatchObject({ param: 'response_format', code: 'schema_too_large' });
      }
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    }
    expect(server.llm.calls).toEqual([]);
    expect(await (await fetch(`${server.url}/ready`)).json()).toMatchObject({ running: 0, queued: 0 });
  });

  it('400 through the OpenAI client for a schema no value satisfies ($ref cycles); a recursive one with a way out runs', async () => {
    server = await startTestServer({
      steps: [scriptedStep.answer('2'), { object: { name: 'root', children: [] } }],
    });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const ask = (schema: Record<string, unknown>) =>
      client.chat.completions.create({
        model: 'deepsearch',
        // A trivial question: one answer step, then the answer in the schema.
        messages: [{ role: 'user', content: 'What is 1+1?' }],
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
      });
    const endless = [
      { $ref: '#' },
      { type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] },
      { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' },
    ];
    for (const schema of endless) {
      const error = (await ask(schema).catch((caught: unknown) => caught)) as InstanceType<
        typeof OpenAI.APIError
      >;
      expect(error, JSON.stringify(schema)).toBeInstanceOf(OpenAI.APIError);
      expect(error.status).toBe(400);
      expect(error.error).toMatchObject({ param: 'response_format', code: 'invalid_schema' });
      expect(error.message).toContain('the answer schema describes no finite value');
    }
    expect(server.llm.calls).toEqual([]);
    const tree = {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name', 'children'],
    };
    const completion = await ask(tree);
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ name: 'root', children: [] });
  });

  it('a schema within the bounds still works', async () => {
    server = await startTestServer({
      steps: [scriptedStep.answer('2'), { object: { value: 2 } }],
    });
    const response = await postChat(
      server.url,
      withSchema({ type: 'object', properties: { value: { type: 'number' } }, required: ['value'] }),
    );
    expect(response.status).toBe(200);
  });
});

/** Deterministic pseudo-random numbers: the same bodies every run. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function malformedBodies(): string[] {
  const random = seeded(42);
  const valid = ask();
  const oddValues: unknown[] = [
    null,
    true,
    -1,
    1e308,
    '',
    'x'.repeat(100_000),
    [],
    {},
    [[[[[]]]]],
    { __proto__: { polluted: true } },
    '\u0000\ud800',
    { type: 'json_schema' },
  ];
  const fields = [
    'model',
    'messages',
    'stream',
    'stream_options',
    'n',
    'response_format',
    'reasoning_effort',
    'budget_tokens',
    'max_steps',
    'boost_hostnames',
    'search_provider',
    'language',
    'think_tags',
  ];
  const bodies = [
    '',
    'null',
    '[]',
    '"text"',
    '{',
    '{"model":',
    '\u0000',
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    `{"model":"deepsearch","messages":${'['.repeat(50_000)}${']'.repeat(50_000)}}`,
    '{"__proto__":{"admin":true},"model":"deepsearch","messages":[{"role":"user","content":"hi"}],"n":2}',
    ask({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }] }] }),
    ask({ messages: [{ role: 'system', content: 'only a system message' }] }),
    ask({
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'x', schema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } },
      },
    }),
  ];
  for (let cut = 1; cut < valid.length; cut += 7) bodies.push(valid.slice(0, cut));
  for (const field of fields) {
    for (const value of oddValues) bodies.push(ask({ [field]: value }));
  }
  for (let index = 0; index < 40; index++) {
    const message = { role: 'user', content: 'hi' } as Record<string, unknown>;
    const key = ['role', 'content', 'name'][Math.floor(random() * 3)]!;
    message[key] = oddValues[Math.floor(random() * oddValues.length)];
    bodies.push(ask({ messages: [message] }));
  }
  return bodies;
}

describe('fuzz: nothing a client sends produces a 5xx', () => {
  it('every malformed body gets a 4xx with an OpenAI error body (or runs, when it is valid after all) and /health answers', async () => {
    server = await startTestServer({ server: { maxConcurrent: 1, maxQueue: 0 } });
    const bodies = malformedBodies();
    expect(bodies.length).toBeGreaterThan(200);
    let refused = 0;
    for (const body of bodies) {
      // Some odd values are valid (null for an optional field): those runs get an answer to give.
      if (server.llm.remaining === 0) server.llm.push(scriptedStep.answer('2'));
      const response = await postChat(server.url, body);
      const text = await response.text();
      if (response.status >= 500 || (response.status >= 300 && response.status < 400)) {
        throw new Error(`status ${response.status} for body ${body.slice(0, 200)}: ${text.slice(0, 300)}`);
      }
      if (response.status >= 400) {
        refused++;
        expect(JSON.parse(text)).toHaveProperty('error.message');
      }
    }
    expect(refused).toBeGreaterThan(bodies.length / 2);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(server.logs.filter((line) => Number(line.status) >= 500)).toEqual([]);
  });
});

describe('cross-origin and DNS-rebinding requests', () => {
  it('415 for a body that is not sent as application/json, even a CORS "simple request"', async () => {
    server = await startTestServer();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await postChat(server.url, ask(), { 'content-type': type });
      expect(response.status).toBe(415);
      expect(await errorOf(response)).toMatchObject({ code: 'unsupported_media_type' });
    }
    expect(server.llm.calls).toEqual([]);
  });

  it('403 for a browser request from an origin the CORS setting does not allow, whatever its content type', async () => {
    server = await startTestServer({
      steps: [scriptedStep.answer('2'), scriptedStep.answer('2')],
      server: { corsOrigins: ['https://chat.example'] },
    });
    for (const type of ['text/plain', 'application/json']) {
      const response = await postChat(server.url, ask(), {
        'content-type': type,
        origin: 'https://evil.example',
      });
      expect(response.status).toBe(403);
      expect(await errorOf(response)).toMatchObject({ code: 'origin_not_allowed' });
    }
    expect(server.llm.calls).toEqual([]);
    const allowed = await postChat(server.url, ask(), { origin: 'https://chat.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://chat.example');
    const sameOrigin = await postChat(server.url, ask(), { origin: server.url });
    expect(sameOrigin.status).toBe(200);
  });

  it('with no CORS origins configured, every cross-origin browser request is refused', async () => {
    server = await startTestServer();
    const response = await postChat(server.url, ask(), { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(server.llm.calls).toEqual([]);
  });

  it('403 for a Host name the server does not answer to (DNS rebinding); localhost, IPs and allowed hosts pass', async () => {
    server = await startTestServer({ server: { allowedHosts: ['deepsearch.lan'] } });
    const port = new URL(server.url).port;
    const get = (host: string) =>
      rawRequest(server!.url, { method: 'GET', path: '/v1/models', headers: { host } });
    const rebound = await get(`evil.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({ error: { code: 'host_not_allowed' } });
    const posted = await rawRequest(server.url, {
      headers: { host: `evil.example:${port}`, 'content-type': 'application/json' },
      body: ask(),
    });
    expect(posted.status).toBe(403);
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `deepsearch.lan:${port}`,
      'DEEPSEARCH.LAN',
    ]) {
      expect((await get(host)).status).toBe(200);
    }
    expect(server.llm.calls).toEqual([]);
  });
});

describe('echoed input and oversized questions', () => {
  it('a 1 MB model name is not echoed whole in the 404', async () => {
    server = await startTestServer();
    const response = await postChat(server.url, ask({ model: 'm'.repeat(1_000_000) }));
    expect(response.status).toBe(404);
    const error = await errorOf(response);
    expect(error.code).toBe('model_not_found');
    expect(error.message.length).toBeLessThan(300);
    expect(error.message).toContain('1000000 characters');
  });

  it('400 before any LLM call for a question, or a conversation, larger than the context budget', async () => {
    server = await startTestServer({ config: { llm: { contextTokens: 32_768 } } });
    const huge = 'word '.repeat(208_000);
    const response = await postChat(
      server.url,
      JSON.stringify({ model: 'deepsearch', messages: [{ role: 'user', content: huge }] }),
    );
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error).toMatchObject({ code: 'context_length_exceeded', param: 'messages' });
    expect(error.message).toMatch(/question is too long: about \d+ tokens, at most 8192/);
    const history = Array.from({ length: 6 }, (_, index) => [
      { role: 'user', content: `question ${index} ${'detail '.repeat(3000)}` },
      { role: 'assistant', content: `answer ${index} ${'detail '.repeat(3000)}` },
    ]).flat();
    const longConversation = await postChat(
      server.url,
      JSON.stringify({ model: 'deepsearch', messages: [...history, { role: 'user', content: 'and now?' }] }),
    );
    expect(longConversation.status).toBe(400);
    expect((await errorOf(longConversation)).message).toMatch(/conversation is too long/);
    expect(server.llm.calls).toEqual([]);
  });
});

describe('client faults are 4xx in the log, never 500', () => {
  // A trickle: a byte now and then, never the body's end (chunked: never the last chunk; with a
  // Content-Length: never that many bytes). The chunked body goes through the chunk-by-chunk
  // reader, the declared one through Request.text().
  it.each([
    {
      body: 'a never-ending chunked body',
      framing: 'Transfer-Encoding: chunked',
      first: '1\r\n{\r\n',
      drip: '1\r\n \r\n',
    },
    {
      body: 'a body shorter than its Content-Length',
      framing: 'Content-Length: 1000',
      first: '{"model":',
      drip: ' ',
    },
  ])('$body gets 408 within the body timeout and is logged as 408', async ({ framing, first, drip }) => {
    server = await startTestServer({ server: { bodyTimeoutSeconds: 0.5 } });
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.write(
      'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `${framing}\r\n\r\n${first}`,
    );
    const trickle = setInterval(() => socket.write(drip), 100);
    const started = Date.now();
    try {
      await waitFor(() => received.includes('\r\n\r\n'), 8000);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(Date.now() - started).toBeLessThan(5000);
    await waitFor(() => server!.logs.length > 0);
    expect(server.logs.at(-1)).toMatchObject({ status: 408, errorCode: 'request_timeout' });
    expect(server.llm.calls).toEqual([]);
  });

  it('a client that hangs up in the middle of its body is logged as a client error (499)', async () => {
    server = await startTestServer();
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.write(
      'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"model":',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await waitFor(() => server!.logs.length > 0);
    expect(server.logs.at(-1)).toMatchObject({ status: 499, errorCode: 'client_closed_request' });
  });

  it('a body over the size limit is 413, also when sent chunked', async () => {
    server = await startTestServer({ server: { maxBodyBytes: 2048 } });
    const big = ask({ language: 'x'.repeat(4000) });
    const declared = await postChat(server.url, big);
    expect(declared.status).toBe(413);
    const chunked = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });
});

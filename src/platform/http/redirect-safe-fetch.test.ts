import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AbortedError } from '../../core/errors/index.js';
import { createLlmClient } from '../../providers/llm/create-llm-client.js';
import { createBraveSearch } from '../../providers/search/brave/brave-search.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../testing/fake-http-server.js';
import { startFakeOpenAi } from '../../testing/fake-openai-server.js';
import { createTestConfig } from '../../testing/test-config.js';
import { settleAbortsBeforeRequests, withSafeRedirects } from './redirect-safe-fetch.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const track = <T extends { close(): Promise<void> }>(server: T) => {
  servers.push(server);
  return server;
};

/** The target a redirect leads to: answers every request with `body`, recording its headers. */
const startTarget = (body: unknown = { web: { results: [] } }) =>
  startFakeHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  }).then(track);

/** Answers every request with a redirect to `location(request path)`. */
const startRedirector = (location: (path: string) => string, status = 307) =>
  startFakeHttpServer((request, response) => {
    response.writeHead(status, { location: location(request.path) });
    response.end();
  }).then(track);

describe('withSafeRedirects: credential headers never follow a redirect to another origin', () => {
  it("Brave's X-Subscription-Token is not sent to the host it is redirected to", async () => {
    const target = await startTarget();
    const redirector = await startRedirector((path) => `${target.url}${path}?q=rust`);
    const brave = createBraveSearch({ apiKey: 'brave-canary-key-123', baseURL: redirector.url });
    expect(await brave.search('rust')).toEqual([]);
    expect(redirector.requests[0]!.headers['x-subscription-token']).toBe('brave-canary-key-123');
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]!.headers['x-subscription-token']).toBeUndefined();
    expect(target.requests[0]!.query.q).toBe('rust');
  });

  it('keeps them on a redirect within the same origin', async () => {
    let server: FakeHttpServer | undefined;
    server = track(
      await startFakeHttpServer((request, response) => {
        if (request.path === '/old/res/v1/web/search') {
          response.writeHead(301, { location: `${server!.url}/res/v1/web/search?q=rust` });
          response.end();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"web":{"results":[]}}');
      }),
    );
    await createBraveSearch({ apiKey: 'brave-key-1', baseURL: `${server.url}/old` }).search('rust');
    expect(server.requests.map((request) => request.headers['x-subscription-token'])).toEqual([
      'brave-key-1',
      'brave-key-1',
    ]);
  });

  it('drops every provider credential header on a cross-origin hop, keeps the others, and re-sends a 307 body', async () => {
    const target = await startTarget({ ok: true });
    const redirector = await startRedirector((path) => `${target.url}${path}`);
    const credentials = {
      authorization: 'Bearer sk-1',
      'x-api-key': 'anthropic-1',
      'api-key': 'azure-1',
      'x-goog-api-key': 'gemini-1',
      'x-subscription-token': 'brave-1',
      'x-auth-token': 'other-1',
    };
    const response = await withSafeRedirects(fetch)(`${redirector.url}/v1/embed`, {
      method: 'POST',
      headers: { ...credentials, 'content-type': 'application/json', 'x-client': 'deepsearch' },
      body: '{"input":"x"}',
    });
    expect(await response.json()).toEqual({ ok: true });
    const sent = target.requests[0]!;
    for (const name of Object.keys(credentials)) expect(sent.headers[name]).toBeUndefined();
    expect(sent.headers['x-client']).toBe('deepsearch');
    expect(sent.method).toBe('POST');
    expect(sent.body).toBe('{"input":"x"}');
  });

  it("the LLM's x-api-key (Anthropic) does not follow a redirect either", async () => {
    const target = await startTarget({ error: { type: 'not_found_error', message: 'nothing here' } });
    const redirector = await startRedirector((path) => `${target.url}${path}`);
    const config = createTestConfig({
      llm: {
        provider: 'anthropic',
        baseURL: `${redirector.url}/v1`,
        apiKey: 'anthropic-canary-key',
        model: 'claude',
      },
    });
    const llm = createLlmClient({ config });
    await llm
      .generateObject({
        role: 'agent',
        system: 's',
        prompt: 'p',
        schema: z.object({ a: z.string() }),
        schemaName: 'x',
      })
      .catch(() => undefined);
    expect(redirector.requests[0]!.headers['x-api-key']).toBe('anthropic-canary-key');
    expect(target.requests.length).toBeGreaterThan(0);
    for (const request of target.requests) expect(request.headers['x-api-key']).toBeUndefined();
  });
});

describe('no provider call starts once the signal has fired', () => {
  it('the LLM client sends nothing for a cancelled run', async () => {
    const fake = track(await startFakeOpenAi({ replies: [{ content: '{"a":"x"}' }] }));
    const config = createTestConfig({ llm: { baseURL: `${fake.url}/v1`, model: 'fake-model' } });
    const controller = new AbortController();
    controller.abort(new Error('client left'));
    const call = createLlmClient({ config }).generateObject({
      role: 'agent',
      system: 's',
      prompt: 'p',
      schema: z.object({ a: z.string() }),
      schemaName: 'x',
      signal: controller.signal,
    });
    await expect(call).rejects.toBeInstanceOf(AbortedError);
    expect(fake.requests).toEqual([]);
  });

  it('search and service calls send nothing for a cancelled run', async () => {
    const target = await startTarget();
    const controller = new AbortController();
    controller.abort(new Error('client left'));
    const search = createBraveSearch({ apiKey: 'brave-key-1', baseURL: target.url });
    await expect(search.search('rust', { signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
    await expect(withSafeRedirects(fetch)(target.url, { signal: controller.signal })).rejects.toBeInstanceOf(
      AbortedError,
    );
    expect(target.requests).toEqual([]);
  });
});

describe('before each request, what settles aborts already in', () => {
  afterEach(() => settleAbortsBeforeRequests());

  it("by default waits a turn of the event loop: an abort queued behind the caller's microtasks stops the request", async () => {
    const target = await startTarget();
    const controller = new AbortController();
    setImmediate(() => controller.abort(new Error('client left')));
    const request = withSafeRedirects(fetch)(target.url, { signal: controller.signal });
    await expect(request).rejects.toBeInstanceOf(AbortedError);
    expect(target.requests).toEqual([]);
  });

  it("a thread's own settle runs first, with no turn: what it aborts is not sent, and nothing else waits", async () => {
    const sent: string[] = [];
    const record = (async (input: string | URL | Request) => {
      sent.push(String(input));
      return new Response('ok');
    }) as typeof fetch;
    const cancelled = new AbortController();
    const settles: string[] = [];
    settleAbortsBeforeRequests(() => {
      settles.push('settle');
      cancelled.abort(new Error('client left'));
    });
    await expect(
      withSafeRedirects(record)('http://127.0.0.1:9/a', { signal: cancelled.signal }),
    ).rejects.toBeInstanceOf(AbortedError);
    expect(sent).toEqual([]);
    // Another run's request is sent before the event loop's next turn: an abort queued there is
    // too late for it (with the default, it would have stopped it, as above).
    const late = new AbortController();
    setImmediate(() => late.abort(new Error('too late')));
    const response = await withSafeRedirects(record)('http://127.0.0.1:9/b', { signal: late.signal });
    expect(await response.text()).toBe('ok');
    expect(late.signal.aborted).toBe(false);
    expect(sent).toEqual(['http://127.0.0.1:9/b']);
    expect(settles).toEqual(['settle', 'settle']);
  });
});

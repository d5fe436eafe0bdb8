import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/config/config-schema.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { createServerApp } from '../../src/server/server-app.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createScriptedLlm } from '../../src/testing/scripted-llm.js';
import { createTestConfig } from '../../src/testing/test-config.js';

// The app answers in memory (app.request): nothing here opens a socket.
const runtimes: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const runtime of runtimes.splice(0)) await runtime.close();
});

function createApp(options: { server?: Partial<ServerConfig>; runs?: boolean } = {}) {
  const config = createTestConfig({
    runs: options.runs === false ? { enabled: false } : { file: ':memory:' },
    server: { port: 0, ...options.server },
  });
  const runtime = createRuntime({
    config,
    search: createFakeSearch({}),
    reader: createFakeReader({}),
    createModel: () => createScriptedLlm([]),
  });
  runtimes.push(runtime);
  const logs: Array<Record<string, unknown>> = [];
  const app = createServerApp({
    runtime,
    settings: config.server,
    searchProviders: ['fake'],
    log: (line) => logs.push(JSON.parse(line) as Record<string, unknown>),
  });
  const request = (path: string, init: RequestInit = {}) =>
    app.request(`http://127.0.0.1${path}`, {
      ...init,
      headers: { host: '127.0.0.1', ...(init.headers as Record<string, string>) },
    });
  return { app, logs, request };
}

/** The API as documented (docs/server-api.md): path → the methods it answers. */
const documented: Record<string, string[]> = {
  '/health': ['GET'],
  '/ready': ['GET'],
  '/': ['GET'],
  '/ui/app.js': ['GET'],
  '/v1/models': ['GET'],
  '/v1/models/deepsearch': ['GET'],
  '/v1/chat/completions': ['POST'],
  '/v1/responses': ['POST'],
  '/v1/research': ['POST'],
  '/v1/research/outline': ['POST', 'GET', 'DELETE'],
  '/v1/research/run_x': ['GET', 'DELETE'],
  '/v1/research/run_x/report': ['GET'],
  '/v1/research/run_x/events': ['GET'],
  '/v1/research/run_x/resume': ['POST'],
  '/v1/runs': ['GET'],
  '/v1/runs/run_x': ['GET', 'DELETE'],
  '/v1/runs/run_x/events': ['GET'],
  '/v1/runs/run_x/report': ['GET'],
  '/mcp': ['GET', 'POST', 'DELETE'],
};
const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

describe('405 from the registered routes', () => {
  it('every other method on a documented path is a 405 whose Allow lists what the path answers', async () => {
    const { request } = createApp();
    for (const [path, allowed] of Object.entries(documented)) {
      const expected = new Set(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed);
      for (const method of methods.filter((name) => !allowed.includes(name))) {
        const response = await request(path, { method });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(new Set(response.headers.get('allow')?.split(', ')), `${method} ${path}`).toEqual(expected);
        const body = (await response.json()) as { error: Record<string, unknown> };
        expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'method_not_allowed' });
        expect(body.error.message).toMatch(new RegExp(`^${method} is not allowed on ${path} \\(use `));
        for (const name of allowed) expect(body.error.message).toContain(name);
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      }
    }
  });

  it('HEAD on a POST-only path is a 405; an unknown path stays an OpenAI-shaped 404', async () => {
    const { request, logs } = createApp();
    const head = await request('/v1/chat/completions', { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
    for (const method of ['GET', 'POST', 'DELETE']) {
      const missing = await request('/v1/nowhere', { method });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({
        error: { message: 'unknown endpoint', type: 'not_found_error', param: null, code: 'unknown_url' },
      });
    }
    // The access log sees the final status and code, as for any error.
    expect(logs.find((line) => line.path === '/v1/chat/completions')).toMatchObject({
      method: 'HEAD',
      status: 405,
      errorCode: 'method_not_allowed',
    });
    expect(logs.at(-1)).toMatchObject({ path: '/v1/nowhere', status: 404, errorCode: 'unknown_url' });
  });

  it('the API guards still come first: a wrong method without the key is a 401', async () => {
    const { request } = createApp({ server: { apiKeys: ['sk-test-key'] } });
    expect((await request('/v1/chat/completions')).status).toBe(401);
    const withKey = await request('/v1/chat/completions', {
      headers: { authorization: 'Bearer sk-test-key' },
    });
    expect(withKey.status).toBe(405);
    // Public paths need no key for their 405.
    expect((await request('/health', { method: 'POST' })).status).toBe(405);
  });

  it('OPTIONS: a CORS preflight from an allowed origin is answered; without CORS it is a 405', async () => {
    const preflight = {
      method: 'OPTIONS',
      headers: {
        origin: 'https://chat.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    };
    const withCors = createApp({ server: { corsOrigins: ['https://chat.example'] } });
    const answered = await withCors.request('/v1/chat/completions', preflight);
    expect(answered.status).toBe(204);
    expect(answered.headers.get('access-control-allow-origin')).toBe('https://chat.example');
    const plain = createApp();
    const refused = await plain.request('/v1/chat/completions', { method: 'OPTIONS' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('POST');
  });

  it('without a run store the run API is a 503 for every method, not a 405', async () => {
    const { request } = createApp({ runs: false });
    for (const [path, method] of [
      ['/v1/research', 'POST'],
      ['/v1/research', 'PUT'],
      ['/v1/runs/run_x', 'DELETE'],
    ] as const) {
      const response = await request(path, { method });
      expect(response.status, `${method} ${path}`).toBe(503);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('runs_disabled');
    }
  });
});

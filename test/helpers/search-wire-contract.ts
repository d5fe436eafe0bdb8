import { afterEach, expect, it } from 'vitest';
import {
  AbortedError,
  AuthenticationError,
  ConfigError,
  ProviderError,
} from '../../src/core/errors/index.js';
import type { HttpSearchSettings } from '../../src/providers/search/http-search-provider.js';
import type { SearchProvider } from '../../src/providers/spec/search-provider.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../src/testing/fake-http-server.js';

export interface SearchWireContractSpec {
  /** Makes the provider under test against a server at `baseURL`. */
  create(settings: HttpSearchSettings & { baseURL: string }): SearchProvider;
  /** The variable an auth or missing-key error must name; absent for keyless engines. */
  keyVariable?: string;
  /** A 200 answer with one result at https://example.com/one, in the engine's wire format. */
  oneResultBody: string;
  /** 200 bodies the provider must reject as malformed. */
  malformedBodies: Record<string, string>;
}

const key = 'test-key-7c1e';

/**
 * The failures every search provider must handle the same way, against a real server on
 * 127.0.0.1: 401 names the variable and is not retried, 429 and 500 are retried then reported,
 * a server that hangs times out, a malformed body is a bad response, never an empty result.
 */
export function describeSearchWireContract(spec: SearchWireContractSpec): void {
  let server: FakeHttpServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serve(status: number, body = '', contentType = 'text/plain'): Promise<FakeHttpServer> {
    server = await startFakeHttpServer((_request, response) => {
      response.writeHead(status, { 'content-type': contentType, 'retry-after': '0' });
      response.end(body);
    });
    return server;
  }

  const failure = (provider: SearchProvider) => provider.search('q').catch((caught: unknown) => caught);

  it('reports a 401 as an authentication error naming the key variable, without retrying', async () => {
    const fake = await serve(
      401,
      JSON.stringify({ error: { message: 'invalid API key' } }),
      'application/json',
    );
    const error = await failure(spec.create({ baseURL: fake.url, apiKey: key, maxRetries: 3 }));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ statusCode: 401, isRetryable: false });
    if (spec.keyVariable) expect((error as Error).message).toContain(spec.keyVariable);
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 429 and then reports a rate limit, not an empty result', async () => {
    const fake = await serve(429, 'slow down');
    const error = await failure(spec.create({ baseURL: fake.url, apiKey: key, maxRetries: 1 }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 429, code: 'provider_rate_limited', isRetryable: true });
    expect(fake.requests).toHaveLength(2);
  });

  it('retries a 500 and then reports it with the body excerpt', async () => {
    const fake = await serve(500, 'index on fire');
    const error = await failure(spec.create({ baseURL: fake.url, apiKey: key, maxRetries: 2 }));
    expect(error).toMatchObject({ statusCode: 500, code: 'provider_http_error' });
    expect((error as Error).message).toMatch(/HTTP 500: index on fire/);
    expect(fake.requests).toHaveLength(3);
  });

  it('times out on a server that never answers', async () => {
    server = await startFakeHttpServer(() => {});
    const error = await failure(
      spec.create({ baseURL: server.url, apiKey: key, timeoutMs: 150, maxRetries: 0 }),
    );
    expect(error).toMatchObject({ code: 'provider_timeout', isRetryable: true });
  });

  it('stops when the caller aborts', async () => {
    server = await startFakeHttpServer(() => {});
    const controller = new AbortController();
    const pending = spec
      .create({ baseURL: server.url, apiKey: key, timeoutMs: 5000 })
      .search('q', { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
  });

  it('parses a well-formed answer', async () => {
    const fake = await serve(200, spec.oneResultBody, 'application/json');
    const hits = await spec.create({ baseURL: fake.url, apiKey: key }).search('q');
    expect(hits.map((hit) => hit.url)).toEqual(['https://example.com/one']);
  });

  for (const [name, body] of Object.entries(spec.malformedBodies)) {
    it(`reports ${name} as a bad response`, async () => {
      const fake = await serve(200, body, 'application/json');
      const error = await failure(spec.create({ baseURL: fake.url, apiKey: key }));
      expect(error).toMatchObject({ code: 'provider_bad_response', isRetryable: false });
      expect(fake.requests).toHaveLength(1);
    });
  }

  if (spec.keyVariable) {
    const variable = spec.keyVariable;
    it(`asks for ${variable} when no key is set, before any request`, async () => {
      const fake = await serve(200, spec.oneResultBody, 'application/json');
      const error = await failure(spec.create({ baseURL: fake.url }));
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toMatchObject({ code: 'config_missing_key' });
      expect((error as Error).message).toContain(variable);
      expect(fake.requests).toHaveLength(0);
    });
  }
}

import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import * as z from 'zod';
import type { DeepSearchConfig, LlmProviderId } from '../../src/config/config-schema.js';
import { AuthenticationError, ProviderError } from '../../src/core/errors/index.js';
import { createLlmClient } from '../../src/providers/llm/create-llm-client.js';
import type { StructuredRequest } from '../../src/providers/spec/llm-client.js';
import { startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import type { FakeLlmServer, FakeReply, FakeReplyScript } from '../../src/testing/fake-llm-script.js';
import { createTestConfig } from '../../src/testing/test-config.js';

/** What the shared wire tests need to see of a request, whatever the vendor. */
export interface WireRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  system: string;
  prompt: string;
}

export type WireReply = FakeReply<never>;

export interface LlmWireContractSpec {
  provider: LlmProviderId;
  model: string;
  /** Starts the vendor's fake; with `apiKey` it refuses other keys the way the vendor does. */
  start(
    options: FakeReplyScript<WireRequest, WireReply> & { apiKey?: string },
  ): Promise<FakeLlmServer<WireRequest>>;
  /** The base URL a user would configure for a server at `url`, e.g. `${url}/v1`. */
  baseURL(url: string): string;
  /** The variable an authentication error must tell the user to set. */
  keyVariable: string;
  /** 200 bodies the vendor's client must reject as malformed: not JSON, or JSON of the wrong shape. */
  malformedBodies: Record<string, string>;
}

export const wireSchema = z.object({
  action: z.enum(['search', 'answer']).describe('what to do next'),
  queries: z.array(z.string()).min(1).describe('search queries to run'),
});
export type WireObject = z.infer<typeof wireSchema>;

export const validObject: WireObject = { action: 'search', queries: ['capital of France'] };

export const wireRequest: StructuredRequest<WireObject> = {
  role: 'agent',
  system: 'You are a careful research agent.',
  prompt: 'Question: what is the capital of France?',
  schema: wireSchema,
  schemaName: 'agent_action',
};

export const wireKey = 'sk-test-wire-key-5f3a9c';

/** Closes every fake a test started, even when the test failed. */
export function trackServers() {
  const servers: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return <T extends { close(): Promise<void> }>(server: T): T => {
    servers.push(server);
    return server;
  };
}

/** A client for `provider` pointed at `baseURL`; `llm` overrides any llm setting. */
export function wireConfig(
  spec: Pick<LlmWireContractSpec, 'provider' | 'model'>,
  baseURL: string,
  llm: Record<string, unknown> = {},
): DeepSearchConfig {
  return createTestConfig({
    llm: { provider: spec.provider, baseURL, model: spec.model, apiKey: wireKey, maxRetries: 2, ...llm },
  });
}

export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/** The URL of a port nothing listens on any more. */
export async function closedServerUrl(): Promise<string> {
  const server = await startFakeHttpServer(() => undefined);
  await server.close();
  return server.url;
}

/**
 * The behaviour every provider must share over real HTTP: auth errors that say what to set,
 * retries where they help, clear errors for broken or absent servers, and repair of sloppy replies.
 */
export function describeLlmWireContract(spec: LlmWireContractSpec): void {
  const track = trackServers();
  const start = async (options: Parameters<LlmWireContractSpec['start']>[0]) =>
    track(await spec.start(options));
  const clientFor = (server: { url: string }, llm: Record<string, unknown> = {}) =>
    createLlmClient({ config: wireConfig(spec, spec.baseURL(server.url), llm) });
  const ok: WireReply = { content: JSON.stringify(validObject) };

  it('turns a refused key into an AuthenticationError that names the variable and hides the key', async () => {
    const server = await start({ apiKey: 'the-right-key', replies: [] });
    const error = await rejectionOf(clientFor(server).generateObject(wireRequest));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain(spec.keyVariable);
    expect(error.message).not.toContain(wireKey);
    expect(server.requests).toHaveLength(1); // never retried
    server.assertConsumed();
  });

  it('retries a 429 once, as soon as Retry-After: 0 allows', async () => {
    const server = await start({ replies: [{ status: 429, headers: { 'retry-after': '0' } }, ok] });
    const retries: Array<{ attempt: number; delayMs: number }> = [];
    const result = await clientFor(server).generateObject({
      ...wireRequest,
      onRetry: ({ attempt, delayMs }) => retries.push({ attempt, delayMs }),
    });
    expect(result.object).toEqual(validObject);
    expect(retries).toEqual([{ attempt: 1, delayMs: 0 }]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toBe(server.requests[0]!.body);
    server.assertConsumed();
  });

  it('retries a 500 and then succeeds', async () => {
    const server = await start({ replies: [{ status: 500 }, ok] });
    const result = await clientFor(server).generateObject(wireRequest);
    expect(result.object).toEqual(validObject);
    expect(server.requests).toHaveLength(2);
    server.assertConsumed();
  });

  it('gives up on a persistent 500 after maxRetries + 1 calls with a ProviderError', async () => {
    const server = await start({ respond: () => ({ status: 500, headers: { 'retry-after': '0' } }) });
    const error = await rejectionOf(clientFor(server, { maxRetries: 2 }).generateObject(wireRequest));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true });
    expect(server.requests).toHaveLength(3);
  });

  for (const [label, raw] of Object.entries(spec.malformedBodies)) {
    it(`reports a malformed 200 body (${label}) as provider_bad_response`, async () => {
      const server = await start({ replies: [{ raw }] });
      const error = await rejectionOf(clientFor(server, { maxRetries: 0 }).generateObject(wireRequest));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ code: 'provider_bad_response' });
      server.assertConsumed();
    });
  }

  it('times out on a server that never answers', async () => {
    const server = await start({ replies: [{ delayMs: 30_000 }] });
    const client = clientFor(server, { maxRetries: 0, timeoutSeconds: 0.3 });
    const started = Date.now();
    const error = await rejectionOf(client.generateObject(wireRequest));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider_timeout', isRetryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('says the server cannot be reached when nothing listens on the port', async () => {
    const url = await closedServerUrl();
    const error = await rejectionOf(clientFor({ url }, { maxRetries: 0 }).generateObject(wireRequest));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider_unreachable' });
    expect(error.message).toMatch(/cannot reach the LLM server at http:\/\/127\.0\.0\.1:\d+/);
    expect(error.message).toContain('connection refused');
  });

  it('repairs a reply with a think block and a fenced JSON object, without a re-ask', async () => {
    const fenced = `<think>France's capital is well known.</think>\n\`\`\`json\n${JSON.stringify(validObject)}\n\`\`\``;
    const server = await start({ replies: [{ content: fenced }] });
    const result = await clientFor(server).generateObject(wireRequest);
    expect(result.object).toEqual(validObject);
    expect(result.repairs).toBe(1);
    expect(result.reasoning).toContain("France's capital is well known.");
    expect(server.requests).toHaveLength(1);
    server.assertConsumed();
  });

  it('re-asks once with the validation error when the object does not match the schema', async () => {
    const invalid = JSON.stringify({ action: 'search', queries: [] });
    const server = await start({ replies: [{ content: invalid }, ok] });
    const result = await clientFor(server).generateObject(wireRequest);
    expect(result.object).toEqual(validObject);
    expect(result.parseFailures).toBe(1);
    expect(server.requests).toHaveLength(2);
    const reask = server.requests[1]!;
    expect(reask.prompt).toContain(wireRequest.prompt);
    expect(reask.prompt).toContain(invalid); // the rejected reply, as the assistant turn
    // The problem in a sentence naming the field, not the validator's own wording.
    expect(reask.prompt).toContain(
      "could not be used: the reply's field `queries` must not be an empty list",
    );
    server.assertConsumed();
  });
}

import { afterEach, describe, expect, it } from 'vitest';
import { createFakeServerSlot } from '../../../test/helpers/fake-server-slot.js';
import { AuthenticationError, ConfigError, ProviderError } from '../../core/errors/index.js';
import type { FakeHttpHandler } from '../../testing/fake-http-server.js';
import { sendJson } from '../../testing/fake-llm-script.js';
import { createEmbeddingService } from './embedding-registry.js';
import { createGoogleEmbedding } from './google-embedding.js';
import { createJinaEmbedding } from './jina-embedding.js';
import { createOpenAiEmbedding } from './openai-embedding.js';

const slot = createFakeServerSlot();
afterEach(() => slot.close());
const fake = slot.start;
const json = sendJson;

/** An OpenAI/Jina-style server: vector [length of text, position], items in reverse order to test indices. */
const openAiStyle: FakeHttpHandler = (request, response) => {
  const input = JSON.parse(request.body).input as string[];
  const data = input.map((text, index) => ({ index, embedding: [text.length, index] })).reverse();
  json(response, 200, { data, usage: { total_tokens: 3 } });
};

describe('Jina embeddings', () => {
  it('sends task, late_chunking, truncate and the key, and places vectors by index', async () => {
    const fakeJina = await fake(openAiStyle);
    const jina = createJinaEmbedding({ baseURL: `${fakeJina.url}/v1`, apiKey: 'jina-key' });
    const result = await jina.embed(['aa', 'bbbb'], { task: 'passage', lateChunking: true });
    expect(result.vectors.map((vector) => Array.from(vector!))).toEqual([
      [2, 0],
      [4, 1],
    ]);
    const request = fakeJina.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/embeddings');
    expect(request.headers.authorization).toBe('Bearer jina-key');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      model: 'jina-embeddings-v3',
      task: 'retrieval.passage',
      late_chunking: true,
      truncate: true,
      embedding_type: 'float',
      input: ['aa', 'bbbb'],
    });
  });

  it('asks for retrieval.query without late chunking for a question, text-matching for dedup', async () => {
    const fakeJina = await fake(openAiStyle);
    const jina = createJinaEmbedding({ baseURL: fakeJina.url, apiKey: 'k' });
    await jina.embed(['q'], { task: 'query', lateChunking: true });
    await jina.embed(['q'], { task: 'similarity' });
    expect(JSON.parse(fakeJina.requests[0]!.body)).toMatchObject({
      task: 'retrieval.query',
      late_chunking: false,
    });
    expect(JSON.parse(fakeJina.requests[1]!.body)).toMatchObject({
      task: 'text-matching',
      late_chunking: false,
    });
  });

  it('asks for JINA_API_KEY when no key is set, at call time', async () => {
    const jina = createJinaEmbedding({ baseURL: 'http://127.0.0.1:9' });
    await expect(jina.embed(['x'], { task: 'query' })).rejects.toThrow(/JINA_API_KEY/);
  });
});

describe('OpenAI-compatible embeddings', () => {
  it('posts model, input and encoding_format to {baseURL}/embeddings, in batches, without a key', async () => {
    const fakeServer = await fake(openAiStyle);
    const local = createOpenAiEmbedding({
      flavour: 'openai-compatible',
      baseURL: `${fakeServer.url}/v1`,
      model: 'nomic-embed-text',
      batchSize: 2,
    });
    const result = await local.embed(['a', 'bb', 'ccc'], { task: 'passage' });
    expect(result.vectors.map((vector) => vector?.[0])).toEqual([1, 2, 3]);
    expect(fakeServer.requests.map((request) => JSON.parse(request.body).input)).toEqual([
      ['a', 'bb'],
      ['ccc'],
    ]);
    expect(JSON.parse(fakeServer.requests[0]!.body)).toEqual({
      model: 'nomic-embed-text',
      input: ['a', 'bb'],
      encoding_format: 'float',
    });
    expect(fakeServer.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('sends dimensions and the bearer key for OpenAI, and rejects vectors of the wrong size', async () => {
    const fakeServer = await fake(openAiStyle);
    const openai = createOpenAiEmbedding({ baseURL: fakeServer.url, apiKey: 'sk-test', dimensions: 3 });
    const error = await openai.embed(['a'], { task: 'query' }).catch((caught: unknown) => caught);
    expect(JSON.parse(fakeServer.requests[0]!.body)).toMatchObject({
      model: 'text-embedding-3-small',
      dimensions: 3,
    });
    expect(fakeServer.requests[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(error).toMatchObject({ code: 'provider_bad_response' });
    expect((error as Error).message).toMatch(/2 dimensions, expected 3/);
  });

  it('skips empty texts and never shifts the other items', async () => {
    const fakeServer = await fake(openAiStyle);
    const local = createOpenAiEmbedding({
      flavour: 'openai-compatible',
      baseURL: fakeServer.url,
      model: 'm',
    });
    const result = await local.embed(['one', '', '  ', 'three!'], { task: 'passage' });
    expect(result.vectors.map((vector) => vector?.[0])).toEqual([3, undefined, undefined, 6]);
    expect(JSON.parse(fakeServer.requests[0]!.body).input).toEqual(['one', 'three!']);
  });

  it('keeps the batches that worked when another fails for good', async () => {
    const fakeServer = await fake((request, response) => {
      const input = JSON.parse(request.body).input as string[];
      if (input.includes('poison')) return json(response, 500, { error: { message: 'model crashed' } });
      openAiStyle(request, response);
    });
    const local = createOpenAiEmbedding({
      flavour: 'openai-compatible',
      baseURL: fakeServer.url,
      model: 'm',
      batchSize: 1,
      maxRetries: 0,
    });
    const result = await local.embed(['ok', 'poison', 'fine'], { task: 'passage' });
    expect(result.vectors.map((vector) => vector?.[0])).toEqual([2, undefined, 4]);
    expect(result.failures).toHaveLength(1);
    expect(result.failures[0]).toMatchObject({ statusCode: 500, isRetryable: true });
  });

  it('retries a 429 after Retry-After, fails on 401 at once naming the key, and times out', async () => {
    let calls = 0;
    const flaky = await fake((request, response) => {
      calls++;
      if (calls === 1) return json(response, 429, { error: 'slow down' }, { 'retry-after': '0' });
      openAiStyle(request, response);
    });
    const local = createOpenAiEmbedding({
      flavour: 'openai-compatible',
      baseURL: flaky.url,
      model: 'm',
      maxRetries: 1,
    });
    expect((await local.embed(['abc'], { task: 'query' })).vectors[0]?.[0]).toBe(3);
    expect(flaky.requests).toHaveLength(2);
    await slot.close();

    const denied = await fake((_request, response) => json(response, 401, { error: { message: 'bad key' } }));
    const openai = createOpenAiEmbedding({
      baseURL: denied.url,
      apiKey: 'sk-x',
      keyHint: 'OPENAI_API_KEY',
      maxRetries: 3,
    });
    const authError = await openai.embed(['a'], { task: 'query' }).catch((caught: unknown) => caught);
    expect(authError).toBeInstanceOf(AuthenticationError);
    expect((authError as Error).message).toMatch(/OPENAI_API_KEY/);
    expect(denied.requests).toHaveLength(1);
    await slot.close();

    const silent = await fake(() => {});
    const slow = createOpenAiEmbedding({
      flavour: 'openai-compatible',
      baseURL: silent.url,
      model: 'm',
      timeoutMs: 150,
      maxRetries: 0,
    });
    await expect(slow.embed(['a'], { task: 'query' })).rejects.toMatchObject({ code: 'provider_timeout' });
  });

  it('reports a malformed body as a bad response', async () => {
    const broken = await fake((_request, response) =>
      json(response, 200, { data: [{ index: 0, embedding: 'nope' }] }),
    );
    const local = createOpenAiEmbedding({
      flavour: 'openai-compatible',
      baseURL: broken.url,
      model: 'm',
      maxRetries: 0,
    });
    const error = await local.embed(['a'], { task: 'query' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'provider_bad_response', isRetryable: false });
  });
});

describe('Google embeddings', () => {
  it('posts batchEmbedContents with the task type and x-goog-api-key', async () => {
    const fakeGoogle = await fake((request, response) => {
      const requests = JSON.parse(request.body).requests as Array<{
        content: { parts: Array<{ text: string }> };
      }>;
      json(response, 200, {
        embeddings: requests.map((item) => ({ values: [item.content.parts[0]!.text.length, 0] })),
      });
    });
    const google = createGoogleEmbedding({
      baseURL: `${fakeGoogle.url}/v1beta`,
      apiKey: 'g-key',
      dimensions: 2,
    });
    const result = await google.embed(['hello', 'hi'], { task: 'passage' });
    expect(result.vectors.map((vector) => vector?.[0])).toEqual([5, 2]);
    const request = fakeGoogle.requests[0]!;
    expect(request.path).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
    expect(request.headers['x-goog-api-key']).toBe('g-key');
    expect(JSON.parse(request.body).requests[0]).toEqual({
      model: 'models/gemini-embedding-001',
      content: { parts: [{ text: 'hello' }] },
      taskType: 'RETRIEVAL_DOCUMENT',
      outputDimensionality: 2,
    });
  });

  it('rejects a response with fewer embeddings than texts, as it cannot be matched', async () => {
    const short = await fake((_request, response) => json(response, 200, { embeddings: [{ values: [1] }] }));
    const google = createGoogleEmbedding({ baseURL: short.url, apiKey: 'k', maxRetries: 0 });
    await expect(google.embed(['a', 'b'], { task: 'query' })).rejects.toThrow(/1 embeddings for 2 texts/);
  });
});

describe('createEmbeddingService', () => {
  const config = { provider: 'jina', batchSize: 64, lateChunking: true, timeoutSeconds: 30, maxRetries: 2 };

  it('names the available providers for an unknown one', () => {
    expect(() => createEmbeddingService({ config: { ...config, provider: 'nope' }, keys: {} })).toThrow(
      ConfigError,
    );
    expect(() => createEmbeddingService({ config: { ...config, provider: 'nope' }, keys: {} })).toThrow(
      "unknown embedding provider 'nope' (available: builtin, jina, openai, openai-compatible, google)",
    );
  });

  it('falls back to the vendor key variable', async () => {
    const fakeJina = await fake(openAiStyle);
    const jina = createEmbeddingService({
      config: { ...config, baseURL: fakeJina.url },
      keys: { jina: 'from-env' },
    });
    await jina.embed(['x'], { task: 'query' });
    expect(fakeJina.requests[0]!.headers.authorization).toBe('Bearer from-env');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createFakeServerSlot } from '../../../test/helpers/fake-server-slot.js';
import { AuthenticationError, ConfigError } from '../../core/errors/index.js';
import type { FakeHttpHandler } from '../../testing/fake-http-server.js';
import { sendJson } from '../../testing/fake-llm-script.js';
import { createRerankService } from './rerank-registry.js';

const slot = createFakeServerSlot();
afterEach(() => slot.close());
const fake = slot.start;
const json = sendJson;

/** Cohere-style: relevance = share of query words in the document, results sorted best first. */
const cohereStyle: FakeHttpHandler = (request, response) => {
  const { query, documents } = JSON.parse(request.body) as { query: string; documents: string[] };
  const words = query.toLowerCase().split(' ');
  const results = documents
    .map((document, index) => ({
      index,
      relevance_score: words.filter((word) => document.toLowerCase().includes(word)).length / words.length,
    }))
    .sort((a, b) => b.relevance_score - a.relevance_score);
  json(response, 200, { id: 'r1', results, meta: { billed_units: { search_units: 1 } } });
};

const base = { batchSize: 100, timeoutSeconds: 30, maxRetries: 0 };
const documents = ['Green Book won Best Picture', 'weather in Paris', 'Best Picture nominees'];

describe('rerank services', () => {
  it('Jina: POST /v1/rerank with model, query, documents, top_n and the key; scores back in input order', async () => {
    const fakeJina = await fake(cohereStyle);
    const jina = createRerankService({
      config: { ...base, provider: 'jina', baseURL: `${fakeJina.url}/v1` },
      keys: { jina: 'jk' },
    });
    const scores = await jina.rerank('best picture', documents);
    expect(scores).toEqual([1, 0, 1]);
    const request = fakeJina.requests[0]!;
    expect(request.path).toBe('/v1/rerank');
    expect(request.headers.authorization).toBe('Bearer jk');
    expect(JSON.parse(request.body)).toEqual({
      model: 'jina-reranker-v2-base-multilingual',
      query: 'best picture',
      documents,
      top_n: 3,
      return_documents: false,
    });
  });

  it('Cohere: POST /v2/rerank with rerank-v3.5 and COHERE_API_KEY', async () => {
    const fakeCohere = await fake(cohereStyle);
    const cohere = createRerankService({
      config: { ...base, provider: 'cohere', baseURL: `${fakeCohere.url}/v2` },
      keys: { cohere: 'ck' },
    });
    await cohere.rerank('paris', documents);
    expect(fakeCohere.requests[0]!.path).toBe('/v2/rerank');
    expect(JSON.parse(fakeCohere.requests[0]!.body).model).toBe('rerank-v3.5');
    expect(fakeCohere.requests[0]!.headers.authorization).toBe('Bearer ck');
    const keyless = createRerankService({ config: { ...base, provider: 'cohere' }, keys: {} });
    await expect(keyless.rerank('q', ['d'])).rejects.toThrow(/COHERE_API_KEY/);
  });

  it('TEI: POST /rerank with query and texts; raw logits become [0, 1] scores', async () => {
    const fakeTei = await fake((request, response) => {
      const { texts } = JSON.parse(request.body) as { texts: string[] };
      json(response, 200, texts.map((_, index) => ({ index, score: index === 0 ? 4 : -4 })).reverse());
    });
    const tei = createRerankService({ config: { ...base, provider: 'tei', baseURL: fakeTei.url }, keys: {} });
    const scores = await tei.rerank('q', ['a', 'b']);
    expect(scores[0]).toBeGreaterThan(0.95);
    expect(scores[1]).toBeLessThan(0.05);
    expect(JSON.parse(fakeTei.requests[0]!.body)).toEqual({
      query: 'q',
      texts: ['a', 'b'],
      raw_scores: false,
      truncate: true,
    });
    expect(fakeTei.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('Infinity and vLLM: the Cohere shape at the configured server, model only when set', async () => {
    const fakeServer = await fake(cohereStyle);
    const vllm = createRerankService({
      config: {
        ...base,
        provider: 'vllm',
        baseURL: `${fakeServer.url}/v1`,
        model: 'BAAI/bge-reranker-v2-m3',
      },
      keys: {},
    });
    await vllm.rerank('best', documents);
    const infinity = createRerankService({
      config: { ...base, provider: 'infinity', baseURL: fakeServer.url },
      keys: {},
    });
    await infinity.rerank('best', documents);
    expect(fakeServer.requests.map((request) => request.path)).toEqual(['/v1/rerank', '/rerank']);
    expect(JSON.parse(fakeServer.requests[0]!.body).model).toBe('BAAI/bge-reranker-v2-m3');
    expect(JSON.parse(fakeServer.requests[1]!.body)).not.toHaveProperty('model');
    const serverless = createRerankService({ config: { ...base, provider: 'tei' }, keys: {} });
    await expect(serverless.rerank('q', ['d'])).rejects.toThrow(
      /DEEPSEARCH_RERANK_BASE_URL, e\.g\. http:\/\/localhost:8080/,
    );
  });

  it('splits long lists into batches and maps each batch back to its own documents', async () => {
    const fakeServer = await fake(cohereStyle);
    const reranker = createRerankService({
      config: { ...base, provider: 'infinity', baseURL: fakeServer.url, batchSize: 2 },
      keys: {},
    });
    const scores = await reranker.rerank('paris', ['a', 'b', 'paris c', 'd', 'e paris']);
    expect(scores).toEqual([0, 0, 1, 0, 1]);
    expect(fakeServer.requests.map((request) => JSON.parse(request.body).documents.length)).toEqual([
      2, 2, 1,
    ]);
  });

  it('fails on 401 naming the key, retries 500s, reports malformed bodies', async () => {
    const denied = await fake((_request, response) => json(response, 401, { detail: 'Invalid API key' }));
    const jina = createRerankService({
      config: { ...base, provider: 'jina', baseURL: denied.url, maxRetries: 2 },
      keys: { jina: 'bad' },
    });
    const error = await jina.rerank('q', ['d']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(/JINA_API_KEY/);
    expect(denied.requests).toHaveLength(1);
    await slot.close();

    let calls = 0;
    const flaky = await fake((request, response) => {
      calls++;
      if (calls < 3) return json(response, 503, { error: 'loading model' });
      cohereStyle(request, response);
    });
    const retried = createRerankService({
      config: { ...base, provider: 'infinity', baseURL: flaky.url, maxRetries: 2 },
      keys: {},
    });
    expect(await retried.rerank('best', ['best'])).toEqual([1]);
    expect(flaky.requests).toHaveLength(3);
    await slot.close();

    const broken = await fake((_request, response) => json(response, 200, { results: [{ index: 'zero' }] }));
    const bad = createRerankService({
      config: { ...base, provider: 'infinity', baseURL: broken.url },
      keys: {},
    });
    await expect(bad.rerank('q', ['d'])).rejects.toMatchObject({ code: 'provider_bad_response' });
  });

  it('names the available providers for an unknown one', () => {
    expect(() => createRerankService({ config: { ...base, provider: 'magic' }, keys: {} })).toThrow(
      ConfigError,
    );
    expect(() => createRerankService({ config: { ...base, provider: 'magic' }, keys: {} })).toThrow(
      "unknown rerank provider 'magic' (available: builtin, jina, cohere, tei, infinity, vllm)",
    );
  });
});

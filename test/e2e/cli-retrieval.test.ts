import { describe, expect, it } from 'vitest';
import { runBuiltCli } from '../helpers/run-built-cli.js';

const env = {
  DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
  DEEPSEARCH_LLM_MODEL: 'm',
  DEEPSEARCH_SEARXNG_URL: 'http://127.0.0.1:9',
};

describe('deepsearch ask: retrieval settings (built CLI)', () => {
  it('--debug says which embedding and reranker are used: built-in fallback or a service', async () => {
    const builtin = await runBuiltCli(['ask', 'q', '--debug', '--llm-max-retries', '0'], env);
    expect(builtin.stderr).toContain(
      'embedding: built-in lexical fallback (hashed-ngrams-1024); no service configured',
    );
    expect(builtin.stderr).toContain('rerank: built-in lexical fallback (bm25); no service configured');
    const services = await runBuiltCli(
      ['ask', 'q', '--debug', '--llm-max-retries', '0', '--rerank-provider', 'cohere'],
      {
        ...env,
        DEEPSEARCH_EMBEDDING_PROVIDER: 'jina',
        JINA_API_KEY: 'jina-secret',
      },
    );
    expect(services.stderr).toContain('embedding: jina jina-embeddings-v3');
    expect(services.stderr).toContain('rerank: cohere rerank-v3.5');
    expect(services.stderr).not.toContain('jina-secret');
  });

  it('an unknown embedding provider is a configuration error naming the choices', async () => {
    const run = await runBuiltCli(['ask', 'q'], { ...env, DEEPSEARCH_EMBEDDING_PROVIDER: 'magic' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "unknown embedding provider 'magic' (available: builtin, jina, openai, openai-compatible, google)",
    );
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/errors/index.js';
import { loadConfig } from './load-config.js';
import { redactConfig } from './redact-config.js';

describe('retrieval settings from env, flags and file', () => {
  it('reads comma-separated host lists, embedding and rerank settings and vendor keys', () => {
    const config = loadConfig({
      env: {
        DEEPSEARCH_BAD_HOSTNAMES: ' pinterest.com, ,quora.com ',
        DEEPSEARCH_EMBEDDING_PROVIDER: 'openai-compatible',
        DEEPSEARCH_EMBEDDING_BASE_URL: 'http://localhost:11434/v1',
        DEEPSEARCH_EMBEDDING_DIMENSIONS: '768',
        JINA_API_KEY: 'jina-secret',
        CO_API_KEY: 'cohere-secret',
        DEEPSEARCH_QUERY_REWRITE: 'false',
      },
      flags: {
        'only-hostnames': 'docs.python.org,peps.python.org',
        'rerank-provider': 'tei',
        'dedup-threshold': '0.9',
      },
    });
    expect(config.search.badHostnames).toEqual(['pinterest.com', 'quora.com']);
    expect(config.search.onlyHostnames).toEqual(['docs.python.org', 'peps.python.org']);
    expect(config.embedding).toMatchObject({ provider: 'openai-compatible', dimensions: 768, batchSize: 64 });
    expect(config.rerank.provider).toBe('tei');
    expect(config.retrieval).toMatchObject({ dedupThreshold: 0.9, queryRewrite: false, perHostCap: 2 });
    expect(config.keys).toMatchObject({ jina: 'jina-secret', cohere: 'cohere-secret' });
    expect(JSON.stringify(redactConfig(config))).not.toMatch(/jina-secret|cohere-secret/);
  });

  it('turns query rewrite off with --no-query-rewrite, over the variable', () => {
    const config = loadConfig({
      env: { DEEPSEARCH_QUERY_REWRITE: 'true' },
      flags: { 'no-query-rewrite': true },
    });
    expect(config.retrieval.queryRewrite).toBe(false);
    expect(loadConfig({ flags: { 'no-query-rewrite': false } }).retrieval.queryRewrite).toBe(true);
  });

  it('defaults to the built-in lexical embedding and reranker with rewrite on', () => {
    const config = loadConfig({});
    expect(config.embedding.provider).toBe('builtin');
    expect(config.rerank.provider).toBe('builtin');
    expect(config.retrieval.queryRewrite).toBe(true);
  });

  it('names the variable that set a bad threshold', () => {
    expect(() => loadConfig({ env: { DEEPSEARCH_DEDUP_THRESHOLD: '2' } })).toThrow(ConfigError);
    expect(() => loadConfig({ env: { DEEPSEARCH_DEDUP_THRESHOLD: '2' } })).toThrow(
      /DEEPSEARCH_DEDUP_THRESHOLD/,
    );
  });
});

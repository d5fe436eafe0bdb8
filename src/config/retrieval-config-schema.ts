import * as z from 'zod';
import { providerName, setting, urlSetting } from './setting.js';

const retries = (what: string) =>
  setting(z.number().int().min(0).max(10).default(2), {
    description: `retries of ${what} call on 408/409/429/5xx and network errors`,
  });

/** Embeddings for query dedup and snippet scoring; `builtin` is lexical and needs no service. */
export const embeddingConfigSchema = z
  .object({
    provider: setting(providerName.default('builtin'), {
      env: 'DEEPSEARCH_EMBEDDING_PROVIDER',
      flag: 'embedding-provider',
      description: 'builtin (lexical) | jina | openai | openai-compatible | google',
    }),
    baseURL: setting(urlSetting.optional(), {
      env: 'DEEPSEARCH_EMBEDDING_BASE_URL',
      flag: 'embedding-base-url',
      description: 'embedding server, e.g. http://localhost:11434/v1 (Ollama) or a TEI/vLLM /v1',
    }),
    model: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_EMBEDDING_MODEL',
      flag: 'embedding-model',
      description: 'embedding model id',
    }),
    apiKey: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_EMBEDDING_API_KEY',
      flag: 'embedding-api-key',
      secret: true,
      description: 'key for the embedding service (overrides the vendor variables)',
    }),
    dimensions: setting(z.number().int().positive().optional(), {
      env: 'DEEPSEARCH_EMBEDDING_DIMENSIONS',
      flag: 'embedding-dimensions',
      description: 'vector size to ask for and check',
    }),
    batchSize: setting(z.number().int().min(1).max(2048).default(64), {
      description: 'texts per embedding request',
    }),
    lateChunking: setting(z.boolean().default(true), {
      description: "Jina: embed a page's chunks with late chunking",
    }),
    timeoutSeconds: setting(z.number().positive().default(30), {
      description: 'seconds before one embedding call is abandoned',
    }),
    maxRetries: retries('an embedding'),
  })
  .strict();

/** Reranking of URL candidates (title + snippet + anchor text); `builtin` is BM25. */
export const rerankConfigSchema = z
  .object({
    provider: setting(providerName.default('builtin'), {
      env: 'DEEPSEARCH_RERANK_PROVIDER',
      flag: 'rerank-provider',
      description: 'builtin (BM25) | jina | cohere | tei | infinity | vllm',
    }),
    baseURL: setting(urlSetting.optional(), {
      env: 'DEEPSEARCH_RERANK_BASE_URL',
      flag: 'rerank-base-url',
      description: 'rerank server (tei, infinity, vllm), e.g. http://localhost:8080',
    }),
    model: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_RERANK_MODEL',
      flag: 'rerank-model',
      description: 'rerank model id',
    }),
    apiKey: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_RERANK_API_KEY',
      flag: 'rerank-api-key',
      secret: true,
      description: 'key for the rerank service (overrides the vendor variables)',
    }),
    // Longer lists are sent in several requests.
    batchSize: setting(z.number().int().min(1).max(1000).default(100), {
      description: 'documents per rerank request',
    }),
    timeoutSeconds: setting(z.number().positive().default(30), {
      description: 'seconds before one rerank call is abandoned',
    }),
    maxRetries: retries('a rerank'),
  })
  .strict();

export const retrievalConfigSchema = z
  .object({
    // Compared with earlier and sibling queries.
    dedupThreshold: setting(z.number().min(0).max(1).default(0.86), {
      env: 'DEEPSEARCH_DEDUP_THRESHOLD',
      flag: 'dedup-threshold',
      description: 'cosine similarity above which a query counts as already searched',
    }),
    queryRewrite: setting(z.boolean().default(true), {
      env: 'DEEPSEARCH_QUERY_REWRITE',
      offFlag: {
        flag: 'no-query-rewrite',
        description: "search the agent's queries as written, without the rewriter call",
      },
      description: 'rewrite and expand queries with the rewriter role before searching',
    }),
    perHostCap: setting(z.number().int().min(1).default(2), {
      description: 'unread URLs of one host shown to the agent per step',
    }),
    rerankCandidates: setting(z.number().int().min(1).max(1000).default(50), {
      description: 'best-ranked URLs sent to the reranker per step',
    }),
    // Hosts that failed or were paywalled, remembered across runs.
    hostHealthFile: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_HOST_HEALTH_FILE',
      flag: 'host-health-file',
      description: 'keep the domain trust profiles in this JSON file instead of the knowledge base database',
    }),
  })
  .strict();

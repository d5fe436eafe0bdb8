// The `deepsearch/providers` entry: the interfaces a provider implements (each with
// `specificationVersion: 'v1'`), the middleware shape and the wrap… functions that apply it, the
// middleware deepsearch itself uses, and the built-in providers' factories. Internal helpers
// (retry, network guard, registries built from the config) stay out.

export {
  createSqliteCache,
  type ResponseCache,
  type SqliteCacheOptions,
} from '../platform/storage/sqlite-cache.js';
export {
  createQuickJsCodeRunner,
  type QuickJsCodeRunnerSettings,
} from './code-runner/quickjs-code-runner.js';
export type { EmbeddingServiceSettings } from './embedding/embedding-service-settings.js';
export { createGoogleEmbedding } from './embedding/google-embedding.js';
export { createJinaEmbedding } from './embedding/jina-embedding.js';
export { createOpenAiEmbedding, type OpenAiEmbeddingSettings } from './embedding/openai-embedding.js';
export { createLlmClient, type DeepSearchLlmClient, type LlmClientOptions } from './llm/create-llm-client.js';
export {
  createReaderCacheMiddleware,
  createSearchCacheMiddleware,
  type ReaderCacheOptions,
  type SearchCacheOptions,
} from './middleware/cache-middleware.js';
export { createConcurrencyLimitMiddleware } from './middleware/concurrency-limit-middleware.js';
export { createRedactErrorsMiddleware } from './middleware/redact-errors-middleware.js';
export { type BuiltinReaderSettings, createBuiltinReader } from './reader/builtin/builtin-reader.js';
export { createFileReader, type FileReaderSettings } from './reader/file/file-reader.js';
export { createJinaReader, type JinaReaderSettings } from './reader/jina/jina-reader.js';
export { createHttpReranker, type HttpRerankerSettings } from './rerank/http-reranker.js';
export { createBraveSearch } from './search/brave/brave-search.js';
export {
  createDuckDuckGoSearch,
  type DuckDuckGoSearchSettings,
} from './search/duckduckgo/duckduckgo-search.js';
export { createExaSearch, type ExaSearchSettings } from './search/exa/exa-search.js';
export { createFallbackSearch } from './search/fallback-search.js';
export type { HttpSearchSettings } from './search/http-search-provider.js';
export { createJinaSearch } from './search/jina/jina-search.js';
export { createSearxngSearch, type SearxngSearchSettings } from './search/searxng/searxng-search.js';
export { createSerperSearch } from './search/serper/serper-search.js';
export { createTavilySearch } from './search/tavily/tavily-search.js';
export type { SpecificationVersion } from './spec/check-provider.js';
export type * from './spec/code-runner.js';
export type * from './spec/embedding-provider.js';
export type * from './spec/llm-client.js';
export type * from './spec/page-reader.js';
export type * from './spec/provider-middleware.js';
export type * from './spec/reranker.js';
export type * from './spec/search-provider.js';
export {
  type WrapOptions,
  wrapCodeRunner,
  wrapEmbeddingProvider,
  wrapLlmClient,
  wrapPageReader,
  wrapReranker,
  wrapSearchProvider,
} from './spec/wrap-provider.js';

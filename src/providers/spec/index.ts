export * from './embedding-provider.js';
export * from './llm-client.js';
export * from './page-reader.js';
export * from './reranker.js';
export * from './search-provider.js';
export * from './source-schemes.js';

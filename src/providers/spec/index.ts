export * from './llm-client.js';
export * from './page-reader.js';
export * from './search-provider.js';

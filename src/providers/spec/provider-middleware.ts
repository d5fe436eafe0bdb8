import type { CodeRunner, CodeRunRequest, CodeRunResult } from './code-runner.js';
import type { EmbeddingProvider, EmbeddingResult, EmbedOptions } from './embedding-provider.js';
import type {
  LlmClient,
  StructuredRequest,
  StructuredResult,
  TextRequest,
  TextResult,
} from './llm-client.js';
import type { Page, PageReader, ReadOptions } from './page-reader.js';
import type { Reranker, RerankOptions } from './reranker.js';
import type { SearchHit, SearchOptions, SearchProvider } from './search-provider.js';

// One shape for everything that wraps a provider (cache, redaction, concurrency limits, merged
// hits), after the AI SDK's LanguageModelV3Middleware: an object of optional hooks, each given the
// call's arguments and `do…`, the next provider in the chain (call it, change the arguments,
// answer without it, or look at what it returned). The wrap… functions of wrap-provider.ts apply a
// list of them; members a middleware does not hook pass through untouched.

/** Shared by every kind: how the wrapped provider names itself (default: the provider's own id). */
export interface MiddlewareIdentity {
  overrideId?: (options: { id: string }) => string;
}

export interface SearchProviderMiddleware extends MiddlewareIdentity {
  wrapSearch?: (options: {
    doSearch: (query: string, options: SearchOptions) => Promise<SearchHit[]>;
    query: string;
    options: SearchOptions;
    provider: SearchProvider;
  }) => Promise<SearchHit[]>;
}

export interface PageReaderMiddleware extends MiddlewareIdentity {
  wrapRead?: (options: {
    doRead: (url: string, options: ReadOptions) => Promise<Page>;
    url: string;
    options: ReadOptions;
    provider: PageReader;
  }) => Promise<Page>;
}

export interface EmbeddingProviderMiddleware extends MiddlewareIdentity {
  wrapEmbed?: (options: {
    doEmbed: (texts: readonly string[], options: EmbedOptions) => Promise<EmbeddingResult>;
    texts: readonly string[];
    options: EmbedOptions;
    provider: EmbeddingProvider;
  }) => Promise<EmbeddingResult>;
}

export interface RerankerMiddleware extends MiddlewareIdentity {
  wrapRerank?: (options: {
    doRerank: (query: string, documents: readonly string[], options: RerankOptions) => Promise<number[]>;
    query: string;
    documents: readonly string[];
    options: RerankOptions;
    provider: Reranker;
  }) => Promise<number[]>;
}

export interface CodeRunnerMiddleware extends MiddlewareIdentity {
  wrapRun?: (options: {
    doRun: (request: CodeRunRequest) => Promise<CodeRunResult>;
    request: CodeRunRequest;
    provider: CodeRunner;
  }) => Promise<CodeRunResult>;
}

export interface LlmClientMiddleware {
  wrapGenerateObject?: <T>(options: {
    doGenerateObject: (request: StructuredRequest<T>) => Promise<StructuredResult<T>>;
    request: StructuredRequest<T>;
    provider: LlmClient;
  }) => Promise<StructuredResult<T>>;
  wrapGenerateText?: (options: {
    doGenerateText: (request: TextRequest) => Promise<TextResult>;
    request: TextRequest;
    provider: LlmClient;
  }) => Promise<TextResult>;
}

/** A middleware that applies to every kind (error redaction does): each wrap… function takes it. */
export type ProviderMiddleware = SearchProviderMiddleware &
  PageReaderMiddleware &
  EmbeddingProviderMiddleware &
  RerankerMiddleware &
  CodeRunnerMiddleware &
  LlmClientMiddleware;

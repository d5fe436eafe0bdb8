import { type AgentInput, runAgent } from '../agent/run-agent.js';
import type { DeepSearchResult } from '../events/agent-types.js';
import { sharedQuickJsCodeRunner } from '../providers/code-runner/quickjs-code-runner.js';
import { checkProvider, type ProviderInput } from '../providers/spec/check-provider.js';
import type { CodeRunner } from '../providers/spec/code-runner.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { LlmClient } from '../providers/spec/llm-client.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import type { Reranker } from '../providers/spec/reranker.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';

/**
 * What `runDeepSearch` takes: the agent's input, whose providers are the caller's own
 * (`specificationVersion: 'v1'`; one without a version still works, with a deprecation warning).
 */
export type DeepSearchInput = Omit<
  AgentInput,
  'llm' | 'search' | 'reader' | 'embedding' | 'reranker' | 'codeRunner'
> & {
  llm: ProviderInput<LlmClient>;
  search: ProviderInput<SearchProvider>;
  reader: ProviderInput<PageReader>;
  /** Default: the built-in lexical embedding. */
  embedding?: ProviderInput<EmbeddingProvider>;
  /** Default: the built-in BM25 reranker. */
  reranker?: ProviderInput<Reranker>;
  /** Default: QuickJS in WebAssembly with config.sandbox's limits. */
  codeRunner?: ProviderInput<CodeRunner>;
};

/**
 * The deep search loop on providers the caller built, without a runtime (the library's
 * `runDeepSearch`). The agent knows only the CodeRunner interface; here, as in the runtime, the
 * coding action's code runs in QuickJS in WebAssembly with config.sandbox's limits (loaded on the
 * first coding step) unless the input brings its own runner. Providers are checked as createRuntime
 * checks them: a ConfigError before anything runs.
 */
export async function runDeepSearch(input: DeepSearchInput): Promise<DeepSearchResult> {
  const { embedding, reranker, codeRunner } = input;
  return runAgent({
    ...input,
    llm: checkProvider<LlmClient>('llm', input.llm),
    search: checkProvider<SearchProvider>('search', input.search),
    reader: checkProvider<PageReader>('reader', input.reader),
    embedding: embedding && checkProvider<EmbeddingProvider>('embedding', embedding),
    reranker: reranker && checkProvider<Reranker>('reranker', reranker),
    codeRunner: codeRunner
      ? checkProvider<CodeRunner>('codeRunner', codeRunner)
      : sharedQuickJsCodeRunner(input.config.sandbox),
  });
}

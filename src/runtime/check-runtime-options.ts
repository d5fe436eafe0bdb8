import { checkProvider } from '../providers/spec/check-provider.js';
import type { CodeRunner } from '../providers/spec/code-runner.js';
import type { EmbeddingProvider } from '../providers/spec/embedding-provider.js';
import type { PageReader } from '../providers/spec/page-reader.js';
import type { Reranker } from '../providers/spec/reranker.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import type { RuntimeOptions } from './create-runtime.js';

/** RuntimeOptions whose providers passed checkRuntimeOptions: what the rest of runtime/ works with. */
export type CheckedRuntimeOptions = RuntimeOptions;

/**
 * Where a caller's own providers enter the runtime: each must be one (its kind's methods) and name
 * a specificationVersion this release implements (see checkProvider).
 */
export function checkRuntimeOptions(options: RuntimeOptions): CheckedRuntimeOptions {
  const { search, reader, sourceReaders, embedding, reranker, codeRunner } = options;
  return {
    ...options,
    search: search && checkProvider<SearchProvider>('search', search),
    reader: reader && checkProvider<PageReader>('reader', reader),
    sourceReaders:
      sourceReaders &&
      Object.fromEntries(
        Object.entries(sourceReaders).map(([scheme, sourceReader]) => [
          scheme,
          checkProvider<PageReader>('reader', sourceReader, `sourceReaders['${scheme}']`),
        ]),
      ),
    embedding: embedding && checkProvider<EmbeddingProvider>('embedding', embedding),
    reranker: reranker && checkProvider<Reranker>('reranker', reranker),
    codeRunner: codeRunner && checkProvider<CodeRunner>('codeRunner', codeRunner),
  };
}

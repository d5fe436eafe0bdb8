import type { CodeRunner } from './code-runner.js';
import type { EmbeddingProvider } from './embedding-provider.js';
import type { LlmClient } from './llm-client.js';
import type { PageReader } from './page-reader.js';
import type {
  CodeRunnerMiddleware,
  EmbeddingProviderMiddleware,
  LlmClientMiddleware,
  MiddlewareIdentity,
  PageReaderMiddleware,
  RerankerMiddleware,
  SearchProviderMiddleware,
} from './provider-middleware.js';
import type { Reranker } from './reranker.js';
import type { SearchProvider } from './search-provider.js';

/** What every wrap… function takes: the provider, and one middleware or a list (the first is outermost). */
export interface WrapOptions<P, M> {
  provider: P;
  middleware: M | readonly M[];
}

/** The search provider with the middleware around its `search`; everything else is the provider's. */
export function wrapSearchProvider<P extends SearchProvider>(
  options: WrapOptions<P, SearchProviderMiddleware>,
): P {
  return applyMiddleware(
    options,
    (provider, { wrapSearch }): Partial<SearchProvider> =>
      wrapSearch
        ? {
            search: (query, searchOptions = {}) =>
              wrapSearch({ doSearch: provider.search, query, options: searchOptions, provider }),
          }
        : {},
  );
}

/** The reader with the middleware around its `read`; `prepare` and `freeToPrefetch` are the reader's. */
export function wrapPageReader<P extends PageReader>(options: WrapOptions<P, PageReaderMiddleware>): P {
  return applyMiddleware(
    options,
    (provider, { wrapRead }): Partial<PageReader> =>
      wrapRead
        ? {
            read: (url, readOptions = {}) =>
              wrapRead({ doRead: provider.read, url, options: readOptions, provider }),
          }
        : {},
  );
}

export function wrapEmbeddingProvider<P extends EmbeddingProvider>(
  options: WrapOptions<P, EmbeddingProviderMiddleware>,
): P {
  return applyMiddleware(
    options,
    (provider, { wrapEmbed }): Partial<EmbeddingProvider> =>
      wrapEmbed
        ? {
            embed: (texts, embedOptions) =>
              wrapEmbed({ doEmbed: provider.embed, texts, options: embedOptions, provider }),
          }
        : {},
  );
}

export function wrapReranker<P extends Reranker>(options: WrapOptions<P, RerankerMiddleware>): P {
  return applyMiddleware(
    options,
    (provider, { wrapRerank }): Partial<Reranker> =>
      wrapRerank
        ? {
            rerank: (query, documents, rerankOptions = {}) =>
              wrapRerank({ doRerank: provider.rerank, query, documents, options: rerankOptions, provider }),
          }
        : {},
  );
}

export function wrapCodeRunner<P extends CodeRunner>(options: WrapOptions<P, CodeRunnerMiddleware>): P {
  return applyMiddleware(
    options,
    (provider, { wrapRun }): Partial<CodeRunner> =>
      wrapRun ? { run: (request) => wrapRun({ doRun: provider.run, request, provider }) } : {},
  );
}

/** The client with the middleware around its calls; other members (describe, contextWindow) are the client's. */
export function wrapLlmClient<P extends LlmClient>(options: WrapOptions<P, LlmClientMiddleware>): P {
  return applyMiddleware(
    options,
    (provider, { wrapGenerateObject, wrapGenerateText }): Partial<LlmClient> => ({
      ...(wrapGenerateObject && {
        generateObject: (request) =>
          wrapGenerateObject({ doGenerateObject: provider.generateObject, request, provider }),
      }),
      ...(wrapGenerateText && {
        generateText: (request) =>
          wrapGenerateText({ doGenerateText: provider.generateText, request, provider }),
      }),
    }),
  );
}

/**
 * Wraps from the last middleware (closest to the provider) to the first (outermost), as the AI
 * SDK's wrapLanguageModel does. `hooks` gives the members one middleware replaces; the provider's
 * methods are called bound to it, so class-based providers work too.
 */
function applyMiddleware<P extends object, M>(
  options: WrapOptions<P, M>,
  hooks: (provider: P, middleware: M) => object,
): P {
  const list: readonly M[] = Array.isArray(options.middleware)
    ? options.middleware
    : [options.middleware as M];
  return [...list].reverse().reduce((inner, middleware) => {
    const bound = delegate(inner, {});
    const { overrideId } = middleware as MiddlewareIdentity;
    const id = overrideId && 'id' in inner ? { id: overrideId({ id: String(inner.id) }) } : {};
    return delegate(inner, { ...hooks(bound, middleware), ...id } as Partial<P>);
  }, options.provider);
}

/**
 * A new object answering with the provider's members (methods bound to it, fields read when asked,
 * so a getter such as a scheme reader's `freeToPrefetch` stays live), with `overrides` on top.
 * Plain own properties: spreading the result keeps the wrapped methods.
 */
function delegate<P extends object>(provider: P, overrides: Partial<P>): P {
  const wrapper = {};
  for (let source: object | null = provider; source && source !== Object.prototype; ) {
    for (const key of Reflect.ownKeys(source)) {
      if (key === 'constructor' || Object.hasOwn(wrapper, key)) continue;
      Object.defineProperty(wrapper, key, {
        enumerable: true,
        configurable: true,
        get() {
          const value = Reflect.get(provider, key) as unknown;
          return typeof value === 'function' ? value.bind(provider) : value;
        },
      });
    }
    source = Object.getPrototypeOf(source) as object | null;
  }
  for (const [key, value] of Object.entries(overrides))
    Object.defineProperty(wrapper, key, { enumerable: true, configurable: true, value });
  return wrapper as P;
}

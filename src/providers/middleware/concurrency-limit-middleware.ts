import { createSemaphore } from '../../core/semaphore.js';
import type { ProviderMiddleware } from '../spec/provider-middleware.js';

/**
 * At most `max` calls of the wrapped provider in flight; the rest wait their turn (first come,
 * first served) and give up their place when their signal aborts. One middleware object is one
 * limit: every provider wrapped with it shares it.
 */
export function createConcurrencyLimitMiddleware(options: { max: number }): ProviderMiddleware {
  const limit = createSemaphore({ max: options.max });
  return {
    wrapSearch: ({ doSearch, query, options: searchOptions }) =>
      limit.run(() => doSearch(query, searchOptions), searchOptions.signal),
    wrapRead: ({ doRead, url, options: readOptions }) =>
      limit.run(() => doRead(url, readOptions), readOptions.signal),
    wrapEmbed: ({ doEmbed, texts, options: embedOptions }) =>
      limit.run(() => doEmbed(texts, embedOptions), embedOptions.signal),
    wrapRerank: ({ doRerank, query, documents, options: rerankOptions }) =>
      limit.run(() => doRerank(query, documents, rerankOptions), rerankOptions.signal),
    wrapRun: ({ doRun, request }) => limit.run(() => doRun(request), request.signal),
    wrapGenerateObject: ({ doGenerateObject, request }) =>
      limit.run(() => doGenerateObject(request), request.signal),
    wrapGenerateText: ({ doGenerateText, request }) =>
      limit.run(() => doGenerateText(request), request.signal),
  };
}

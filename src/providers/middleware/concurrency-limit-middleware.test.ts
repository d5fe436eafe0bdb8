import { describe, expect, it } from 'vitest';
import type { PageReader } from '../spec/page-reader.js';
import type { SearchProvider } from '../spec/search-provider.js';
import { wrapPageReader, wrapSearchProvider } from '../spec/wrap-provider.js';
import { createConcurrencyLimitMiddleware } from './concurrency-limit-middleware.js';

/** Counts calls in flight and the most there were at once. */
function createGauge() {
  const gauge = { inFlight: 0, peak: 0 };
  const during = async <T>(work: () => T): Promise<T> => {
    gauge.inFlight++;
    gauge.peak = Math.max(gauge.peak, gauge.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 10));
    gauge.inFlight--;
    return work();
  };
  return { gauge, during };
}

describe('createConcurrencyLimitMiddleware', () => {
  it('never lets more than max searches of one provider be in flight', async () => {
    const { gauge, during } = createGauge();
    const slow: SearchProvider = {
      specificationVersion: 'v1',
      id: 'slow',
      search: (query) => during(() => [{ url: `https://e.example/${query}`, title: query, snippet: '' }]),
    };
    const limited = wrapSearchProvider({
      provider: slow,
      middleware: createConcurrencyLimitMiddleware({ max: 2 }),
    });
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((query) => limited.search(query)));
    expect(results.map((hits) => hits[0]?.title)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(gauge.peak).toBe(2);
    expect(limited.id).toBe('slow');
    expect(limited.specificationVersion).toBe('v1');
  });

  it('is one limit for every provider wrapped with the same middleware, whatever its kind', async () => {
    const { gauge, during } = createGauge();
    const limit = createConcurrencyLimitMiddleware({ max: 1 });
    const search: SearchProvider = wrapSearchProvider<SearchProvider>({
      provider: { specificationVersion: 'v1', id: 's', search: () => during(() => []) },
      middleware: limit,
    });
    const reader = wrapPageReader<PageReader>({
      provider: {
        specificationVersion: 'v1',
        id: 'r',
        read: (url) =>
          during(() => ({
            requestedUrl: url,
            url,
            title: '',
            markdown: '',
            text: '',
            links: [],
            contentType: 'text/html',
          })),
      },
      middleware: limit,
    });
    await Promise.all([search.search('a'), reader.read('https://e.example/'), search.search('b')]);
    expect(gauge.peak).toBe(1);
  });

  it('lets a waiter whose signal aborts leave the queue with an AbortedError', async () => {
    const { during } = createGauge();
    const limited = wrapSearchProvider<SearchProvider>({
      provider: { specificationVersion: 'v1', id: 's', search: () => during(() => []) },
      middleware: createConcurrencyLimitMiddleware({ max: 1 }),
    });
    const first = limited.search('a');
    const controller = new AbortController();
    const waiting = limited.search('b', { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortedError' });
    await expect(first).resolves.toEqual([]);
  });
});

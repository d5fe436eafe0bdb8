import { describe, expect, it } from 'vitest';
import { createRedactor, ProviderError } from '../../core/errors/index.js';
import type { EmbeddingProvider } from '../spec/embedding-provider.js';
import type { PageReader } from '../spec/page-reader.js';
import type { SearchProvider } from '../spec/search-provider.js';
import { wrapEmbeddingProvider, wrapPageReader, wrapSearchProvider } from '../spec/wrap-provider.js';
import { createRedactErrorsMiddleware } from './redact-errors-middleware.js';

const secret = 'sk-test-0123456789abcdef';
const echo = () => new ProviderError(`401: key ${secret} rejected`, { providerId: 'echo', statusCode: 401 });

describe('createRedactErrorsMiddleware', () => {
  const redaction = createRedactErrorsMiddleware(createRedactor([secret]));

  it('redacts a secret from what any kind of provider rejects or throws with', async () => {
    const search = wrapSearchProvider<SearchProvider>({
      provider: { specificationVersion: 'v1', id: 's', search: () => Promise.reject(echo()) },
      middleware: redaction,
    });
    const reader = wrapPageReader<PageReader>({
      provider: {
        specificationVersion: 'v1',
        id: 'r',
        // Thrown before a promise exists: still caught and redacted.
        read: () => {
          throw echo();
        },
      },
      middleware: redaction,
    });
    const embedding = wrapEmbeddingProvider<EmbeddingProvider>({
      provider: {
        specificationVersion: 'v1',
        id: 'e',
        model: 'm',
        builtin: false,
        embed: () => Promise.reject(echo()),
      },
      middleware: redaction,
    });
    for (const call of [
      () => search.search('q'),
      () => reader.read('https://x.example/'),
      () => embedding.embed(['t'], { task: 'query' }),
    ]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as Error).message).not.toContain(secret);
      expect((error as Error).message).toContain('rejected');
    }
  });

  it('leaves answers, and members it does not hook, as they are', async () => {
    let prepared = false;
    const reader = wrapPageReader<PageReader>({
      provider: {
        specificationVersion: 'v1',
        id: 'r',
        freeToPrefetch: true,
        prepare: async () => {
          prepared = true;
        },
        read: async (url) => ({
          requestedUrl: url,
          url,
          title: secret,
          markdown: '',
          text: '',
          links: [],
          contentType: 'text/html',
        }),
      },
      middleware: redaction,
    });
    await reader.prepare?.();
    expect(prepared).toBe(true);
    expect(reader.freeToPrefetch).toBe(true);
    // Only errors are redacted: a page's own text is the page's.
    expect((await reader.read('https://x.example/')).title).toBe(secret);
  });
});

import { AbortedError, ProviderError } from '../core/errors/index.js';
import { extractHtmlPage } from '../extraction/html/extract-html-page.js';
import type { Page, PageReader, ReadOptions } from '../providers/spec/page-reader.js';

export interface FakeReader extends PageReader {
  /** URLs asked for, in order. */
  readonly calls: string[];
}

/**
 * A reader over a table of URL → HTML. Pages go through the real extractor, so quotes are checked
 * against the same text a real read would give; a URL not in the table fails like an HTTP 404.
 */
export function createFakeReader(pages: Record<string, string>): FakeReader {
  const calls: string[] = [];
  return {
    specificationVersion: 'v1',
    id: 'fake',
    calls,
    async read(url: string, options: ReadOptions = {}): Promise<Page> {
      calls.push(url);
      if (options.signal?.aborted) throw new AbortedError(undefined, { cause: options.signal.reason });
      const html = Object.hasOwn(pages, url) ? pages[url] : undefined;
      if (html === undefined) {
        throw new ProviderError(`${url} answered HTTP 404`, {
          providerId: 'fake',
          statusCode: 404,
          code: 'page_http_error',
        });
      }
      return { requestedUrl: url, url, contentType: 'text/html', ...extractHtmlPage(html, url) };
    },
  };
}

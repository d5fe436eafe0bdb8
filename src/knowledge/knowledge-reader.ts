import { ProviderError } from '../core/errors/index.js';
import { markdownToText } from '../extraction/markdown-to-text.js';
import type { Page, PageReader } from '../providers/spec/page-reader.js';
import type { KnowledgeBase } from './knowledge-base.js';
import { parseKnowledgeUrl } from './knowledge-url.js';

/**
 * Reads `kb:` URLs from the store: the document's stored text as the page, so a quote is verified
 * against exactly what was ingested, as for a web page. The fragment (the chunk a hit came from)
 * is ignored: the agent's snippet selection finds the relevant part of the whole document.
 */
export function createKnowledgeReader(options: { knowledgeBase: KnowledgeBase }): PageReader {
  return {
    specificationVersion: 'v1',
    id: 'kb',
    async read(url: string): Promise<Page> {
      const parts = parseKnowledgeUrl(url);
      const document = options.knowledgeBase.store().getDocument(parts.documentKey);
      if (!document || document.collection !== parts.collection) {
        throw new ProviderError(`${url} is not in the knowledge base (removed?): see deepsearch kb list`, {
          providerId: 'kb',
          code: 'page_not_found',
          statusCode: 404,
        });
      }
      return {
        requestedUrl: url,
        // The URL as asked (with its chunk fragment): the agent keeps pages under the URL it read.
        url,
        title: document.title,
        markdown: document.text,
        text: document.contentType === 'text/plain' ? document.text : markdownToText(document.text),
        links: [],
        contentType: document.contentType,
      };
    },
  };
}

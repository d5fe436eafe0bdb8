import type { SearchProviderMiddleware } from '../providers/spec/provider-middleware.js';
import type { SearchHit, SearchOptions, SearchProvider } from '../providers/spec/search-provider.js';
import type { KnowledgeBase } from './knowledge-base.js';
import type { KnowledgeHit } from './search-knowledge.js';

export const localSearchId = 'local';

/**
 * The knowledge base as a search provider (`--search-provider local`): hybrid search with
 * expansion, each hit a `kb:` URL whose title names the document, its file and page, and whose
 * snippet is the chunk. Time range, language and site filters do not apply to one's own files.
 */
export function createLocalSearch(options: {
  knowledgeBase: KnowledgeBase;
  collection?: string;
}): SearchProvider {
  return {
    specificationVersion: 'v1',
    id: localSearchId,
    async search(query: string, searchOptions: SearchOptions = {}): Promise<SearchHit[]> {
      const { hits } = await options.knowledgeBase.search({
        query,
        limit: searchOptions.count ?? 10,
        collection: options.collection,
        signal: searchOptions.signal,
      });
      return hits.map(toSearchHit);
    },
  };
}

export function toSearchHit(hit: KnowledgeHit): SearchHit {
  const file = hit.source.split(/[\\/]/).at(-1) ?? hit.source;
  const where = [file !== hit.title ? file : '', hit.page ? `p. ${hit.page}` : ''].filter(Boolean).join(', ');
  const section = hit.heading && hit.heading !== hit.title ? ` › ${hit.heading.split(' > ').at(-1)}` : '';
  return {
    url: hit.url,
    title: `${hit.title}${section}${where ? ` (${where})` : ''}`,
    snippet: hit.text.replace(/\s+/g, ' ').trim().slice(0, 500),
  };
}

/**
 * Web search with the knowledge base's hits merged in (`ask --kb`): both run for every query,
 * local hits first and labelled "[local]", so each search step sees one's own documents too.
 * A failing knowledge base never hides the web results. The wrapped provider's id is `web+local`.
 */
export function createLocalHitsMiddleware(options: {
  local: SearchProvider;
  /** Local hits asked for per query (default 3). */
  count?: number;
}): SearchProviderMiddleware {
  const { local, count = 3 } = options;
  return {
    overrideId: ({ id }) => `${id}+${local.id}`,
    async wrapSearch({ doSearch, query, options: searchOptions, provider }) {
      const [webHits, localHits] = await Promise.all([
        doSearch(query, searchOptions),
        local.search(query, { count, signal: searchOptions.signal }).catch((error: unknown) => {
          searchOptions.onNotice?.({
            kind: 'fallback',
            providerId: local.id,
            nextProviderId: provider.id,
            reason: error instanceof Error ? error.message : String(error),
          });
          return [];
        }),
      ]);
      return [...localHits.map((hit) => ({ ...hit, title: `[local] ${hit.title}` })), ...webHits];
    },
  };
}

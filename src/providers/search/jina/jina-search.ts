import * as z from 'zod';
import type { SearchProvider } from '../../spec/search-provider.js';
import {
  type BuildRequestInput,
  createHttpSearchProvider,
  type HttpSearchSettings,
  splitLocale,
  withSiteOperator,
} from '../http-search-provider.js';

// Jina Search's JSON answer (Accept: application/json): results in `data`, null when none.
const jinaResultSchema = z.looseObject({
  url: z.string().nullish(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  date: z.string().nullish(),
});
const jinaResponseSchema = z.looseObject({ data: z.array(jinaResultSchema).nullish() });
type JinaResponse = z.infer<typeof jinaResponseSchema>;

/**
 * Jina Search: GET s.jina.ai/?q= with a Bearer key. X-Respond-With: no-content asks for titles,
 * URLs and descriptions only (the reader fetches pages itself); the site goes in X-Site. Jina has
 * no time filter, so a time range is left to the query rewriter.
 */
export function createJinaSearch(settings: HttpSearchSettings = {}): SearchProvider {
  const provider = createHttpSearchProvider<JinaResponse>(
    {
      id: 'jina',
      defaultBaseURL: 'https://s.jina.ai',
      keyVariable: 'JINA_API_KEY',
      schema: jinaResponseSchema,
      buildRequest,
      toHits: (body) =>
        (body.data ?? []).map((result) => ({
          url: result.url,
          title: result.title,
          snippet: result.description,
          date: result.date,
        })),
    },
    settings,
  );
  return {
    ...provider,
    search(query, options = {}) {
      // `since` cannot be sent: the caller says so (once per run), and ranks older pages down.
      if (options.since) options.onNotice?.({ kind: 'no-time-filter', providerId: provider.id });
      return provider.search(query, options);
    },
  };
}

function buildRequest({ baseURL, apiKey, query, options, count }: BuildRequestInput) {
  const url = new URL(`${baseURL}/`);
  // X-Site restricts the search; the operator in the query is kept off so it is not searched for.
  url.searchParams.set('q', options.site ? query : withSiteOperator(query, options));
  url.searchParams.set('num', String(count));
  const { language, region } = splitLocale(options);
  if (region) url.searchParams.set('gl', region);
  if (language) url.searchParams.set('hl', language);
  return {
    url: url.toString(),
    headers: {
      authorization: `Bearer ${apiKey}`,
      'x-respond-with': 'no-content',
      ...(options.site ? { 'x-site': options.site } : {}),
    },
  };
}

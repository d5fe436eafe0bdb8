import * as z from 'zod';
import type { SearchProvider, TimeRange } from '../../spec/search-provider.js';
import {
  type BuildRequestInput,
  createHttpSearchProvider,
  type HttpSearchSettings,
} from '../http-search-provider.js';

// Tavily's documented search response; published_date comes only for some results.
const tavilyResultSchema = z.looseObject({
  url: z.string().nullish(),
  title: z.string().nullish(),
  content: z.string().nullish(),
  published_date: z.string().nullish(),
});
const tavilyResponseSchema = z.looseObject({ results: z.array(tavilyResultSchema) });
type TavilyResponse = z.infer<typeof tavilyResponseSchema>;

// Tavily's time_range has no hour.
const timeRanges: Readonly<Record<TimeRange, string>> = {
  hour: 'day',
  day: 'day',
  week: 'week',
  month: 'month',
  year: 'year',
};
// Tavily refuses max_results above 20.
const maxCount = 20;

/**
 * Tavily: POST /search with a Bearer key. The site restriction is its include_domains field;
 * it has no language or region parameter for general search.
 */
export function createTavilySearch(settings: HttpSearchSettings = {}): SearchProvider {
  return createHttpSearchProvider<TavilyResponse>(
    {
      id: 'tavily',
      defaultBaseURL: 'https://api.tavily.com',
      keyVariable: 'TAVILY_API_KEY',
      schema: tavilyResponseSchema,
      buildRequest,
      toHits: (body) =>
        body.results.map((result) => ({
          url: result.url,
          title: result.title,
          snippet: result.content,
          date: result.published_date,
        })),
    },
    settings,
  );
}

function buildRequest({ baseURL, apiKey, query, options, count }: BuildRequestInput) {
  return {
    url: `${baseURL}/search`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${apiKey}` },
    body: {
      query,
      search_depth: 'basic',
      topic: 'general',
      max_results: Math.min(count, maxCount),
      ...(options.timeRange ? { time_range: timeRanges[options.timeRange] } : {}),
      ...(options.site ? { include_domains: [options.site] } : {}),
    },
  };
}

import * as z from 'zod';
import {
  isoDay,
  type SearchOptions,
  type SearchProvider,
  type TimeRange,
} from '../../spec/search-provider.js';
import {
  type BuildRequestInput,
  createHttpSearchProvider,
  type HttpSearchSettings,
  splitLocale,
  withSiteOperator,
} from '../http-search-provider.js';

// Brave's documented web search response; `web` is absent when nothing was found.
const braveResultSchema = z.looseObject({
  url: z.string().nullish(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  page_age: z.string().nullish(),
});
const braveResponseSchema = z.looseObject({
  web: z.looseObject({ results: z.array(braveResultSchema).nullish() }).nullish(),
});
type BraveResponse = z.infer<typeof braveResponseSchema>;

// Brave's freshness codes: past day/week/month/year; it has no hour.
const freshness: Readonly<Record<TimeRange, string>> = {
  hour: 'pd',
  day: 'pd',
  week: 'pw',
  month: 'pm',
  year: 'py',
};
// Brave answers 422 to a count above 20.
const maxCount = 20;

/** Brave Search API: GET /res/v1/web/search with the key in X-Subscription-Token. */
export function createBraveSearch(settings: HttpSearchSettings = {}): SearchProvider {
  return createHttpSearchProvider<BraveResponse>(
    {
      id: 'brave',
      defaultBaseURL: 'https://api.search.brave.com',
      keyVariable: 'BRAVE_API_KEY',
      schema: braveResponseSchema,
      buildRequest,
      toHits: (body) =>
        (body.web?.results ?? []).map((result) => ({
          url: result.url,
          title: stripTags(result.title),
          snippet: stripTags(result.description),
          date: result.page_age,
        })),
    },
    settings,
  );
}

function buildRequest({ baseURL, apiKey, query, options, count }: BuildRequestInput) {
  const url = new URL(`${baseURL}/res/v1/web/search`);
  url.searchParams.set('q', withSiteOperator(query, options));
  url.searchParams.set('count', String(Math.min(count, maxCount)));
  // A start date is Brave's custom range, from it to today; else its named windows.
  if (options.since) url.searchParams.set('freshness', `${isoDay(options.since)}to${isoDay(new Date())}`);
  else if (options.timeRange) url.searchParams.set('freshness', freshness[options.timeRange]);
  setLocale(url.searchParams, options);
  return { url: url.toString(), headers: { 'x-subscription-token': apiKey } };
}

function setLocale(params: URLSearchParams, options: SearchOptions): void {
  const { language, region } = splitLocale(options);
  if (language) params.set('search_lang', language);
  if (region) params.set('country', region.toUpperCase());
}

/** Brave marks query terms with <strong> in titles and descriptions. */
function stripTags(text: string | null | undefined): string | undefined {
  return text?.replace(/<[^>]*>/g, '');
}

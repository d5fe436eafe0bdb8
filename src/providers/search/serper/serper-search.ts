import * as z from 'zod';
import type { SearchOptions, SearchProvider, TimeRange } from '../../spec/search-provider.js';
import {
  type BuildRequestInput,
  createHttpSearchProvider,
  type HttpSearchSettings,
  splitLocale,
  withSiteOperator,
} from '../http-search-provider.js';

// Serper's documented Google results; `organic` may be missing when nothing was found.
const serperResultSchema = z.looseObject({
  link: z.string().nullish(),
  title: z.string().nullish(),
  snippet: z.string().nullish(),
  date: z.string().nullish(),
});
const serperResponseSchema = z.looseObject({ organic: z.array(serperResultSchema).nullish() });
type SerperResponse = z.infer<typeof serperResponseSchema>;

// Google's tbs=qdr:<unit> time filter.
const timeFilters: Readonly<Record<TimeRange, string>> = {
  hour: 'qdr:h',
  day: 'qdr:d',
  week: 'qdr:w',
  month: 'qdr:m',
  year: 'qdr:y',
};

/** Serper (Google results): POST /search with a JSON body and the key in X-API-KEY. */
export function createSerperSearch(settings: HttpSearchSettings = {}): SearchProvider {
  return createHttpSearchProvider<SerperResponse>(
    {
      id: 'serper',
      defaultBaseURL: 'https://google.serper.dev',
      keyVariable: 'SERPER_API_KEY',
      schema: serperResponseSchema,
      buildRequest,
      toHits: (body) =>
        (body.organic ?? []).map((result) => ({
          url: result.link,
          title: result.title,
          snippet: result.snippet,
          date: result.date,
        })),
    },
    settings,
  );
}

function buildRequest({ baseURL, apiKey, query, options, count }: BuildRequestInput) {
  const { language, region } = splitLocale(options);
  return {
    url: `${baseURL}/search`,
    method: 'POST' as const,
    headers: { 'x-api-key': apiKey },
    body: {
      q: withSiteOperator(query, options),
      num: count,
      ...(region ? { gl: region } : {}),
      ...(language ? { hl: language } : {}),
      ...timeFilter(options),
    },
  };
}

/**
 * Google's tbs: qdr (past day, week, month, year) for a range, or for `since` the one covering it;
 * `since` older than a year is a custom range from that day (cdr:1,cd_min:M/D/YYYY).
 */
function timeFilter(options: SearchOptions): { tbs?: string } {
  if (options.timeRange) return { tbs: timeFilters[options.timeRange] };
  if (!options.since) return {};
  const { since } = options;
  return { tbs: `cdr:1,cd_min:${since.getUTCMonth() + 1}/${since.getUTCDate()}/${since.getUTCFullYear()}` };
}

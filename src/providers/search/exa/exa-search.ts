import * as z from 'zod';
import type { SearchProvider, TimeRange } from '../../spec/search-provider.js';
import {
  type BuildRequestInput,
  createHttpSearchProvider,
  type HttpSearchSettings,
} from '../http-search-provider.js';

export interface ExaSearchSettings extends HttpSearchSettings {
  /** The clock for time windows; tests pass a fixed one. */
  now?: () => Date;
}

// Exa's documented search response; the snippet comes from highlights, text or summary.
const exaResultSchema = z.looseObject({
  url: z.string().nullish(),
  title: z.string().nullish(),
  publishedDate: z.string().nullish(),
  highlights: z.array(z.string()).nullish(),
  summary: z.string().nullish(),
  text: z.string().nullish(),
});
const exaResponseSchema = z.looseObject({ results: z.array(exaResultSchema) });
type ExaResponse = z.infer<typeof exaResponseSchema>;

const hourMs = 3_600_000;
const windowMs: Readonly<Record<TimeRange, number>> = {
  hour: hourMs,
  day: 24 * hourMs,
  week: 7 * 24 * hourMs,
  month: 31 * 24 * hourMs,
  year: 366 * 24 * hourMs,
};
const snippetChars = 400;

/**
 * Exa: POST /search with the key in x-api-key. A time range becomes startPublishedDate, the site
 * includeDomains, the region userLocation; highlights give the snippet.
 */
export function createExaSearch(settings: ExaSearchSettings = {}): SearchProvider {
  const now = settings.now ?? (() => new Date());
  return createHttpSearchProvider<ExaResponse>(
    {
      id: 'exa',
      defaultBaseURL: 'https://api.exa.ai',
      keyVariable: 'EXA_API_KEY',
      schema: exaResponseSchema,
      buildRequest: (input) => buildRequest(input, now()),
      toHits: (body) =>
        body.results.map((result) => ({
          url: result.url,
          title: result.title,
          snippet: (result.highlights?.join(' … ') || result.summary || result.text || '').slice(
            0,
            snippetChars,
          ),
          date: result.publishedDate,
        })),
    },
    settings,
  );
}

function buildRequest({ baseURL, apiKey, query, options, count }: BuildRequestInput, now: Date) {
  const since =
    options.since ?? (options.timeRange ? new Date(now.getTime() - windowMs[options.timeRange]) : undefined);
  return {
    url: `${baseURL}/search`,
    method: 'POST' as const,
    headers: { 'x-api-key': apiKey },
    body: {
      query,
      type: 'auto',
      numResults: count,
      contents: { highlights: true },
      ...(options.site ? { includeDomains: [options.site] } : {}),
      ...(since ? { startPublishedDate: since.toISOString() } : {}),
      ...(options.region ? { userLocation: options.region.toUpperCase() } : {}),
    },
  };
}

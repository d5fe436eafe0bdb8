import * as z from 'zod';
import {
  AuthenticationError,
  ConfigError,
  isAuthenticationError,
  isProviderError,
  ProviderError,
} from '../../../core/errors/index.js';
import { displayUrl } from '../../../platform/http/describe-network-error.js';
import { requestJson } from '../../../platform/http/request-json.js';
import { toIsoDate } from '../../../platform/http/to-iso-date.js';
import { withRetry } from '../../../platform/retry/with-retry.js';
import type { SearchHit, SearchOptions, SearchProvider, TimeRange } from '../../spec/search-provider.js';

export interface SearxngSearchSettings {
  /** Base URL of the instance, e.g. http://localhost:8080 (a path prefix is kept). */
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
  /** Per request; default 15 s. */
  timeoutMs?: number;
  /** Retries of retryable failures (timeouts, 429, 5xx); default 2. */
  maxRetries?: number;
}

const providerId = 'searxng';
const defaultCount = 10;

// SearXNG's documented JSON format; anything but `results` may be missing, nulls are common.
const searxngResultSchema = z.looseObject({
  url: z.string().nullish(),
  title: z.string().nullish(),
  content: z.string().nullish(),
  publishedDate: z.string().nullish(),
});
const searxngResponseSchema = z.looseObject({ results: z.array(searxngResultSchema) });
type SearxngResult = z.infer<typeof searxngResultSchema>;

// SearXNG has no 'hour': the nearest range that still contains the last hour is a day.
const searxngTimeRanges: Readonly<Record<TimeRange, string>> = {
  hour: 'day',
  day: 'day',
  week: 'week',
  month: 'month',
  year: 'year',
};

/** Search through a SearXNG instance's JSON API (GET /search?format=json). */
export function createSearxngSearch(settings: SearxngSearchSettings = {}): SearchProvider {
  return {
    specificationVersion: 'v1',
    id: providerId,
    async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
      const url = buildSearchUrl(requireBaseUrl(settings.baseURL), query, options);
      const body = await withRetry(() => requestSearch(url, settings, options.signal), {
        maxRetries: settings.maxRetries ?? 2,
        signal: options.signal,
      });
      return toHits(body.results).slice(0, options.count ?? defaultCount);
    },
  };
}

function requireBaseUrl(baseURL: string | undefined): string {
  if (baseURL) return baseURL;
  throw new ConfigError(
    'no SearXNG instance configured: set DEEPSEARCH_SEARXNG_URL (or --searxng-url) to the base URL of an ' +
      'instance with the JSON format enabled, e.g. http://localhost:8080, or search without one: ' +
      '--search-provider duckduckgo',
    { code: 'config_missing_search' },
  );
}

function buildSearchUrl(baseURL: string, query: string, options: SearchOptions): string {
  const url = new URL(`${baseURL.replace(/\/+$/, '')}/search`);
  const params = url.searchParams;
  params.set('q', options.site ? `site:${options.site} ${query}` : query);
  params.set('format', 'json');
  params.set('pageno', '1');
  params.set('safesearch', '0');
  if (options.timeRange) params.set('time_range', searxngTimeRanges[options.timeRange]);
  const language = searxngLanguage(options);
  if (language) params.set('language', language);
  return url.toString();
}

/** SearXNG takes the region as part of the language ('fr-BE'); a tag that has one already wins. */
function searxngLanguage(options: SearchOptions): string | undefined {
  if (!options.language) return undefined;
  if (!options.region || options.language.includes('-')) return options.language;
  return `${options.language}-${options.region.toUpperCase()}`;
}

async function requestSearch(
  url: string,
  settings: SearxngSearchSettings,
  signal: AbortSignal | undefined,
): Promise<z.infer<typeof searxngResponseSchema>> {
  try {
    return await requestJson({
      providerId,
      url,
      schema: searxngResponseSchema,
      fetch: settings.fetch,
      timeoutMs: settings.timeoutMs ?? 15_000,
      signal,
    });
  } catch (error) {
    // SearXNG answers 403 when the instance does not enable the JSON format: the usual setup mistake.
    if (isAuthenticationError(error) && error.statusCode === 403) {
      throw new AuthenticationError(
        `${providerId} (${displayUrl(url)}) answered HTTP 403: the instance probably has the JSON format ` +
          'disabled; enable `json` in search.formats of settings.yml',
        { providerId, statusCode: 403, code: 'searxng_json_disabled', cause: error },
      );
    }
    // Down or mistyped: name the setting to check, as an LLM server that cannot be reached does.
    if (
      isProviderError(error) &&
      (error.code === 'provider_unreachable' || error.code === 'provider_timeout')
    ) {
      throw new ProviderError(
        `${error.message} (is it running? check DEEPSEARCH_SEARXNG_URL or --searxng-url)`,
        {
          providerId,
          code: error.code,
          isRetryable: error.isRetryable,
          cause: error.cause ?? error,
        },
      );
    }
    throw error;
  }
}

function toHits(results: SearxngResult[]): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const result of results) {
    if (!result.url || !URL.canParse(result.url)) continue;
    const publishedAt = toIsoDate(result.publishedDate);
    hits.push({
      url: result.url,
      title: result.title?.trim() ?? '',
      snippet: result.content?.trim() ?? '',
      ...(publishedAt ? { publishedAt } : {}),
    });
  }
  return hits;
}

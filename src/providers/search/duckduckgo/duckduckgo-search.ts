import { ProviderError } from '../../../core/errors/index.js';
import { displayUrl } from '../../../platform/http/describe-network-error.js';
import { requestText } from '../../../platform/http/request-json.js';
import type { SearchOptions, SearchProvider, TimeRange } from '../../spec/search-provider.js';
import {
  type BuildRequestInput,
  createHttpSearchProvider,
  type HttpSearchSettings,
  type SendInput,
  splitLocale,
  withSiteOperator,
} from '../http-search-provider.js';
import type { DuckDuckGoPage } from './parse-duckduckgo-html.js';

export type DuckDuckGoSearchSettings = Omit<HttpSearchSettings, 'apiKey'> & { userAgent?: string };

const providerId = 'duckduckgo';

// The HTML endpoint's df filter has no hour: a day is the nearest window that contains it.
const dateFilters: Readonly<Record<TimeRange, string>> = {
  hour: 'd',
  day: 'd',
  week: 'w',
  month: 'm',
  year: 'y',
};

const browserUserAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/** Keyless search through DuckDuckGo's HTML endpoint (POST html.duckduckgo.com/html/, a form). */
export function createDuckDuckGoSearch(settings: DuckDuckGoSearchSettings = {}): SearchProvider {
  const userAgent = settings.userAgent ?? browserUserAgent;
  return createHttpSearchProvider<DuckDuckGoPage>(
    {
      id: providerId,
      defaultBaseURL: 'https://html.duckduckgo.com',
      buildRequest: (input) => buildRequest(input, userAgent),
      send: sendForm,
      toHits: (page) => page.hits,
    },
    settings,
  );
}

function buildRequest({ baseURL, query, options }: BuildRequestInput, userAgent: string) {
  const form = new URLSearchParams({ q: withSiteOperator(query, options), b: '' });
  const region = regionCode(options);
  if (region) form.set('kl', region);
  if (options.timeRange) form.set('df', dateFilters[options.timeRange]);
  return {
    url: `${baseURL}/html/`,
    method: 'POST' as const,
    headers: {
      accept: 'text/html,application/xhtml+xml',
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': userAgent,
    },
    body: form.toString(),
  };
}

/** DuckDuckGo regions are country-language pairs such as 'fr-fr' or 'be-nl'. */
function regionCode(options: SearchOptions): string | undefined {
  if (!options.region) return undefined;
  const { language, region } = splitLocale(options);
  return `${region}-${language ?? 'en'}`;
}

async function sendForm(input: SendInput): Promise<DuckDuckGoPage> {
  const { status, text } = await requestText({
    providerId: input.providerId,
    url: input.request.url,
    method: input.request.method,
    headers: input.request.headers,
    body: input.request.body,
    fetch: input.settings.fetch,
    timeoutMs: input.settings.timeoutMs ?? 15_000,
    signal: input.signal,
  });
  // linkedom loads with the first DuckDuckGo answer, not whenever a search provider is made.
  const { parseDuckDuckGoHtml } = await import('./parse-duckduckgo-html.js');
  const page = parseDuckDuckGoHtml(text);
  // A robot check comes back as 202 or 200 with a challenge instead of results: a rate limit
  // that retrying at once does not lift, so the fallback chain should move on.
  if (page.blocked || (status === 202 && page.hits.length === 0)) {
    throw new ProviderError(
      `${providerId} (${displayUrl(input.request.url)}) answered with a robot check instead of results`,
      { providerId, statusCode: status, code: 'provider_rate_limited', isRetryable: false },
    );
  }
  if (!page.recognised) {
    throw new ProviderError(
      `${providerId} (${displayUrl(input.request.url)}) answered with a page that has no results list`,
      { providerId, statusCode: status, code: 'provider_bad_response', isRetryable: false },
    );
  }
  return page;
}

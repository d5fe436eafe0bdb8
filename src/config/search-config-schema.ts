import * as z from 'zod';
import { searchKeyProviderIds } from './config-ids.js';
import { providerName, setting, urlSetting } from './setting.js';
import { isSinceValue, sinceHelp } from './time-scope.js';

const hostList = () => z.array(z.string().min(1)).default([]);

export const searchConfigSchema = z
  .object({
    provider: setting(providerName.default('auto'), {
      env: 'DEEPSEARCH_SEARCH_PROVIDER',
      flag: 'search-provider',
      description:
        'search provider, or a comma-separated fallback chain, e.g. searxng,duckduckgo (auto: searxng when ' +
        '--searxng-url is set, else duckduckgo)',
    }),
    searxngUrl: setting(urlSetting.optional(), {
      env: 'DEEPSEARCH_SEARXNG_URL',
      flag: 'searxng-url',
      description: 'base URL of a SearXNG instance with the JSON format enabled',
    }),
    // Each key's variable is the vendor's own (BRAVE_API_KEY...): see searchKeySources.
    apiKeys: setting(z.partialRecord(z.enum(searchKeyProviderIds), z.string().min(1)).default({}), {
      description: 'search keys by provider id (the variables BRAVE_API_KEY... are the usual way)',
    }),
    baseURLs: setting(z.record(z.string(), urlSetting).default({}), {
      description:
        'another endpoint per search provider (a proxy, a gateway), e.g. { "brave": "https://..." }',
    }),
    concurrency: setting(z.number().int().min(1).max(64).default(4), {
      env: 'DEEPSEARCH_SEARCH_CONCURRENCY',
      flag: 'search-concurrency',
      description: 'searches in flight at once per provider',
    }),
    providerConcurrency: setting(z.record(z.string(), z.number().int().min(1).max(64)).default({}), {
      description: 'searches in flight per provider, e.g. { "searxng": 8 } (DuckDuckGo defaults to 1)',
    }),
    resultsPerQuery: setting(z.number().int().min(1).max(50).default(10), {
      env: 'DEEPSEARCH_SEARCH_RESULTS',
      flag: 'search-results',
      description: 'hits kept per query',
    }),
    timeoutSeconds: setting(z.number().positive().default(15), {
      description: 'seconds before one search call is abandoned',
    }),
    boostHostnames: setting(hostList(), {
      env: 'DEEPSEARCH_BOOST_HOSTNAMES',
      flag: 'boost-hostnames',
      description: 'comma-separated hosts ranked higher when choosing pages to read',
    }),
    badHostnames: setting(hostList(), {
      env: 'DEEPSEARCH_BAD_HOSTNAMES',
      flag: 'bad-hostnames',
      description: 'comma-separated hosts never searched into or read (subdomains included)',
    }),
    since: setting(
      z
        .string()
        .refine(isSinceValue, { message: `--since must be ${sinceHelp}` })
        .optional(),
      {
        env: 'DEEPSEARCH_SEARCH_SINCE',
        flag: 'since',
        description: `only pages from this time on: ${sinceHelp}; each provider's own time filter`,
      },
    ),
    onlyHostnames: setting(hostList(), {
      env: 'DEEPSEARCH_ONLY_HOSTNAMES',
      flag: 'only-hostnames',
      description: 'comma-separated hosts: when set, only these are searched and read',
    }),
  })
  .strict();

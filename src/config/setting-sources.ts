import { type LlmRole, llmRoles, type SearchKeyProviderId, searchKeyProviderIds } from './config-ids.js';
import { embeddedSettingSources } from './embedded-setting-sources.js';
import { extractionSettingSources } from './extraction-setting-sources.js';
import { networkSettingSources } from './network-setting-sources.js';
import { researchSettingSources } from './research-setting-sources.js';
import { retrievalSettingSources } from './retrieval-setting-sources.js';
import { runsSettingSources } from './runs-setting-sources.js';
import { sandboxSettingSources } from './sandbox-setting-sources.js';
import { scaleSettingSources } from './scale-setting-sources.js';

/** 'list': comma-separated in env and flags. */
export type SettingType = 'string' | 'integer' | 'number' | 'boolean' | 'list';

/** One configurable value: where it lives in the config and which env variable / flag sets it. */
export interface SettingSource {
  path: string;
  type: SettingType;
  description: string;
  env?: string;
  flag?: string;
  secret?: boolean;
  /** The variable or flag says the opposite of the config value (--no-cache sets cache.enabled false). */
  negate?: boolean;
}

/** The value a flag takes, as help shows it (`--max-steps <integer>`); none for a switch. */
export function flagPlaceholder(source: Pick<SettingSource, 'type'>): string | undefined {
  if (source.type === 'boolean') return undefined;
  return source.type === 'string' ? 'value' : source.type === 'list' ? 'a,b' : source.type;
}

const searchKeyNames: Readonly<Record<SearchKeyProviderId, string>> = {
  brave: 'Brave Search',
  serper: 'Serper',
  tavily: 'Tavily',
  jina: 'Jina',
  exa: 'Exa',
};

/** The vendors' own variable names (BRAVE_API_KEY...), as for the LLM vendor keys. */
function searchKeySources(): SettingSource[] {
  return searchKeyProviderIds.map((id) => ({
    path: `search.apiKeys.${id}`,
    env: searchKeyVariable(id),
    type: 'string',
    secret: true,
    description: `${searchKeyNames[id]} API key (search provider ${id})`,
  }));
}

export function searchKeyVariable(id: SearchKeyProviderId): string {
  return `${id.toUpperCase()}_API_KEY`;
}

const baseSources: SettingSource[] = [
  {
    path: 'llm.provider',
    env: 'DEEPSEARCH_LLM_PROVIDER',
    flag: 'llm-provider',
    type: 'string',
    description: 'openai | openai-compatible | anthropic | google | local-embedded (inferred when unset)',
  },
  {
    path: 'llm.baseURL',
    env: 'DEEPSEARCH_LLM_BASE_URL',
    flag: 'llm-base-url',
    type: 'string',
    description: 'base URL of an OpenAI-compatible server, e.g. http://localhost:11434/v1',
  },
  {
    path: 'llm.model',
    env: 'DEEPSEARCH_LLM_MODEL',
    flag: 'llm-model',
    type: 'string',
    description: 'model id',
  },
  {
    path: 'llm.apiKey',
    env: 'DEEPSEARCH_LLM_API_KEY',
    flag: 'llm-api-key',
    type: 'string',
    secret: true,
    description: 'API key for the LLM (overrides the vendor variables below)',
  },
  {
    path: 'llm.temperature',
    env: 'DEEPSEARCH_LLM_TEMPERATURE',
    flag: 'llm-temperature',
    type: 'number',
    description: 'sampling temperature for every role unless a role sets its own',
  },
  {
    path: 'llm.maxOutputTokens',
    env: 'DEEPSEARCH_LLM_MAX_OUTPUT_TOKENS',
    flag: 'llm-max-output-tokens',
    type: 'integer',
    description: 'cap on tokens generated per call',
  },
  {
    path: 'llm.contextTokens',
    env: 'DEEPSEARCH_LLM_CONTEXT_TOKENS',
    flag: 'llm-context-tokens',
    type: 'integer',
    description: 'prompt budget per call in tokens (default 32768)',
  },
  {
    path: 'llm.structuredOutput',
    env: 'DEEPSEARCH_LLM_STRUCTURED_OUTPUT',
    flag: 'llm-structured-output',
    type: 'string',
    description: 'auto | json-schema | prompt (auto falls back to prompt if the server rejects JSON schema)',
  },
  {
    path: 'llm.timeoutSeconds',
    env: 'DEEPSEARCH_LLM_TIMEOUT',
    flag: 'llm-timeout',
    type: 'number',
    description: 'seconds before one LLM call is abandoned (default 120)',
  },
  {
    path: 'llm.maxRetries',
    env: 'DEEPSEARCH_LLM_MAX_RETRIES',
    flag: 'llm-max-retries',
    type: 'integer',
    description: 'retries on 408/409/429/5xx and network errors (default 2)',
  },
  {
    path: 'keys.openai',
    env: 'OPENAI_API_KEY',
    type: 'string',
    secret: true,
    description: 'OpenAI key (provider openai)',
  },
  {
    path: 'keys.anthropic',
    env: 'ANTHROPIC_API_KEY',
    type: 'string',
    secret: true,
    description: 'Anthropic key (provider anthropic)',
  },
  {
    path: 'keys.google',
    env: 'GEMINI_API_KEY',
    type: 'string',
    secret: true,
    description: 'Google Gemini key (provider google)',
  },
  {
    path: 'search.provider',
    env: 'DEEPSEARCH_SEARCH_PROVIDER',
    flag: 'search-provider',
    type: 'string',
    description:
      'search provider, or a comma-separated fallback chain, e.g. searxng,duckduckgo (default auto: searxng when ' +
      '--searxng-url is set, else duckduckgo)',
  },
  ...searchKeySources(),
  {
    path: 'search.concurrency',
    env: 'DEEPSEARCH_SEARCH_CONCURRENCY',
    flag: 'search-concurrency',
    type: 'integer',
    description: 'searches in flight at once per provider (default 4)',
  },
  {
    path: 'cache.enabled',
    env: 'DEEPSEARCH_NO_CACHE',
    flag: 'no-cache',
    type: 'boolean',
    negate: true,
    description: 'neither read nor write the on-disk cache of search results and pages',
  },
  {
    path: 'cache.dir',
    env: 'DEEPSEARCH_CACHE_DIR',
    flag: 'cache-dir',
    type: 'string',
    description: "folder of the cache database (default: the user's data directory)",
  },
  {
    path: 'knowledge.file',
    env: 'DEEPSEARCH_KB',
    type: 'string',
    description:
      "knowledge base database file (default: knowledge.sqlite in the user's data directory; flag --kb)",
  },
  {
    path: 'knowledge.collection',
    env: 'DEEPSEARCH_KB_COLLECTION',
    flag: 'kb-collection',
    type: 'string',
    description: 'search only this knowledge base collection (default: all)',
  },
  {
    path: 'cache.ttlSeconds.search',
    env: 'DEEPSEARCH_CACHE_TTL_SEARCH',
    type: 'integer',
    description: 'seconds a cached search result stays fresh (default 86400)',
  },
  {
    path: 'cache.ttlSeconds.page',
    env: 'DEEPSEARCH_CACHE_TTL_PAGE',
    type: 'integer',
    description: 'seconds a cached page stays fresh (default 604800)',
  },
  {
    path: 'search.searxngUrl',
    env: 'DEEPSEARCH_SEARXNG_URL',
    flag: 'searxng-url',
    type: 'string',
    description: 'base URL of a SearXNG instance with the JSON format enabled',
  },
  {
    path: 'search.resultsPerQuery',
    env: 'DEEPSEARCH_SEARCH_RESULTS',
    flag: 'search-results',
    type: 'integer',
    description: 'hits kept per query (default 10)',
  },
  {
    path: 'search.boostHostnames',
    env: 'DEEPSEARCH_BOOST_HOSTNAMES',
    flag: 'boost-hostnames',
    type: 'list',
    description: 'comma-separated hosts ranked higher when choosing pages to read',
  },
  {
    path: 'search.badHostnames',
    env: 'DEEPSEARCH_BAD_HOSTNAMES',
    flag: 'bad-hostnames',
    type: 'list',
    description: 'comma-separated hosts never searched into or read (subdomains included)',
  },
  {
    path: 'search.onlyHostnames',
    env: 'DEEPSEARCH_ONLY_HOSTNAMES',
    flag: 'only-hostnames',
    type: 'list',
    description: 'comma-separated hosts: when set, only these are searched and read',
  },
  ...embeddedSettingSources,
  ...retrievalSettingSources,
  ...sandboxSettingSources,
  ...extractionSettingSources,
  ...researchSettingSources,
  ...runsSettingSources,
  ...networkSettingSources,
  ...scaleSettingSources,
  {
    path: 'reader.allowPrivateNetwork',
    env: 'DEEPSEARCH_ALLOW_PRIVATE_NETWORK',
    flag: 'allow-private-network',
    type: 'boolean',
    description: 'let the reader and search results reach loopback/private addresses (default false)',
  },
  {
    path: 'reader.allowFiles',
    env: 'DEEPSEARCH_ALLOW_FILES',
    flag: 'allow-files',
    type: 'boolean',
    description: 'let the agent read local files named as file:/// URLs in the question (default false)',
  },
  {
    path: 'reader.fileRoots',
    env: 'DEEPSEARCH_FILE_ROOTS',
    flag: 'file-roots',
    type: 'list',
    description: 'with --allow-files: the only folders files may be read from (comma-separated)',
  },
  {
    path: 'reader.timeoutSeconds',
    env: 'DEEPSEARCH_READER_TIMEOUT',
    flag: 'reader-timeout',
    type: 'number',
    description: 'seconds before a page fetch is abandoned (default 20)',
  },
  {
    path: 'reader.provider',
    env: 'DEEPSEARCH_READER',
    flag: 'reader',
    type: 'string',
    description:
      'page reader: auto (default: builtin, Chromium for pages scripts write), builtin, browser (Chromium) or jina',
  },
  {
    path: 'reader.respectRobotsTxt',
    env: 'DEEPSEARCH_RESPECT_ROBOTS_TXT',
    flag: 'respect-robots-txt',
    type: 'boolean',
    description: "skip pages a site's robots.txt disallows for deepsearch (default false)",
  },
  {
    path: 'reader.chromiumPath',
    env: 'DEEPSEARCH_CHROMIUM_PATH',
    flag: 'chromium-path',
    type: 'string',
    description:
      'Chromium executable for the browser reader and PDF export of reports (default: /usr/bin/chromium if present)',
  },
  {
    path: 'reader.jina.apiKey',
    env: 'JINA_API_KEY',
    type: 'string',
    secret: true,
    description: 'Jina key for --reader jina (optional; raises the rate limit)',
  },
  {
    path: 'budget.maxSteps',
    env: 'DEEPSEARCH_MAX_STEPS',
    flag: 'max-steps',
    type: 'integer',
    description: 'agent steps, the forced final answer included (default 30)',
  },
  {
    path: 'budget.maxTokens',
    env: 'DEEPSEARCH_MAX_TOKENS',
    flag: 'max-tokens',
    type: 'integer',
    description: 'LLM tokens for the whole run (default 1000000)',
  },
  {
    path: 'budget.maxTimeSeconds',
    env: 'DEEPSEARCH_MAX_TIME',
    flag: 'max-time',
    type: 'number',
    description: 'wall time for the whole run in seconds (default 600)',
  },
  {
    path: 'budget.maxAttempts',
    env: 'DEEPSEARCH_MAX_ATTEMPTS',
    flag: 'max-attempts',
    type: 'integer',
    description: 'rejected answers before the final answer is forced (default 3)',
  },
  {
    path: 'agent.noDirectAnswer',
    env: 'DEEPSEARCH_NO_DIRECT_ANSWER',
    flag: 'no-direct-answer',
    type: 'boolean',
    description: 'always search before answering, even trivial questions',
  },
  {
    path: 'agent.language',
    env: 'DEEPSEARCH_LANGUAGE',
    flag: 'language',
    type: 'string',
    description: 'answer language (default: the language of the question)',
  },
  {
    path: 'debug',
    env: 'DEEPSEARCH_DEBUG',
    flag: 'debug',
    type: 'boolean',
    description: 'verbose diagnostics',
  },
];

const roleFields: Array<{ field: string; suffix: string; type: SettingType; secret?: boolean }> = [
  { field: 'provider', suffix: 'PROVIDER', type: 'string' },
  { field: 'baseURL', suffix: 'BASE_URL', type: 'string' },
  { field: 'model', suffix: 'MODEL', type: 'string' },
  { field: 'apiKey', suffix: 'API_KEY', type: 'string', secret: true },
  { field: 'temperature', suffix: 'TEMPERATURE', type: 'number' },
  { field: 'maxOutputTokens', suffix: 'MAX_OUTPUT_TOKENS', type: 'integer' },
];

function roleSources(role: LlmRole): SettingSource[] {
  return roleFields.map(({ field, suffix, type, secret }) => ({
    path: `llm.roles.${role}.${field}`,
    env: `DEEPSEARCH_LLM_${role.toUpperCase()}_${suffix}`,
    flag: `llm-${role}-${suffix.toLowerCase().replaceAll('_', '-')}`,
    type,
    ...(secret ? { secret } : {}),
    description: `${field} for the ${role} role`,
  }));
}

const serverSources: SettingSource[] = [
  {
    path: 'server.host',
    env: 'DEEPSEARCH_HOST',
    flag: 'host',
    type: 'string',
    description: 'serve: address to listen on (default 127.0.0.1)',
  },
  {
    path: 'server.port',
    env: 'DEEPSEARCH_PORT',
    flag: 'port',
    type: 'integer',
    description: 'serve: port to listen on (default 3000)',
  },
  {
    path: 'server.apiKeys',
    env: 'DEEPSEARCH_API_KEYS',
    type: 'list',
    secret: true,
    description: 'serve: comma-separated keys clients must send as Authorization: Bearer (default: no auth)',
  },
  {
    path: 'server.corsOrigins',
    env: 'DEEPSEARCH_CORS_ORIGINS',
    flag: 'cors-origins',
    type: 'list',
    description: "serve: comma-separated origins allowed by CORS, or '*' (default: none)",
  },
  {
    path: 'server.allowedHosts',
    env: 'DEEPSEARCH_ALLOWED_HOSTS',
    flag: 'allowed-hosts',
    type: 'list',
    description:
      "serve: comma-separated host names accepted besides localhost, IPs and --host ('.example.com' for subdomains, '*' for any)",
  },
  {
    path: 'server.bodyTimeoutSeconds',
    env: 'DEEPSEARCH_BODY_TIMEOUT',
    flag: 'body-timeout',
    type: 'number',
    description: 'serve: seconds a client has to send its request body before 408 (default 10)',
  },
  {
    path: 'server.maxConcurrent',
    env: 'DEEPSEARCH_MAX_CONCURRENT',
    flag: 'max-concurrent',
    type: 'integer',
    description: 'serve: deep searches running at once (default 8)',
  },
  {
    path: 'server.maxQueue',
    env: 'DEEPSEARCH_MAX_QUEUE',
    flag: 'max-queue',
    type: 'integer',
    description: 'serve: requests waiting for a slot before 429 (default 32)',
  },
  {
    path: 'server.keyShare',
    env: 'DEEPSEARCH_KEY_SHARE',
    flag: 'key-share',
    type: 'number',
    description:
      'serve: with several API keys, the share of queue places and MCP sessions one key may hold (default 0.5)',
  },
  {
    path: 'server.allowUnauthenticated',
    env: 'DEEPSEARCH_ALLOW_UNAUTHENTICATED',
    flag: 'allow-unauthenticated',
    type: 'boolean',
    description: 'serve: listen on a non-loopback --host without API keys (refused otherwise)',
  },
  {
    path: 'server.maxBodyBytes',
    env: 'DEEPSEARCH_MAX_BODY_BYTES',
    flag: 'max-body-bytes',
    type: 'integer',
    description: 'serve: largest request body accepted (default 1048576)',
  },
  {
    path: 'server.shutdownGraceSeconds',
    env: 'DEEPSEARCH_SHUTDOWN_GRACE',
    flag: 'shutdown-grace',
    type: 'number',
    description: 'serve: seconds running requests get to finish on SIGTERM (default 30)',
  },
];

export const settingSources: readonly SettingSource[] = [
  ...baseSources,
  ...llmRoles.flatMap(roleSources),
  ...serverSources,
];

/** Extra names accepted for a vendor key, checked after the main one. */
export const envAliases: Readonly<Record<string, string>> = {
  GOOGLE_GENERATIVE_AI_API_KEY: 'keys.google',
  CO_API_KEY: 'keys.cohere',
};

import type * as z from 'zod';
import { ConfigError } from '../../core/errors/index.js';
import { requestJson } from '../../platform/http/request-json.js';
import { toIsoDate } from '../../platform/http/to-iso-date.js';
import { withRetry } from '../../platform/retry/with-retry.js';
import type { SearchHit, SearchOptions, SearchProvider } from '../spec/search-provider.js';

/** What every HTTP search provider takes; keys are read when a search is made, not before. */
export interface HttpSearchSettings {
  apiKey?: string;
  /** Override of the service's URL (a proxy, or a fake in tests); a path prefix is kept. */
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
  /** Per request; default 15 s. */
  timeoutMs?: number;
  /** Retries of retryable failures (timeouts, 429, 5xx); default 2. */
  maxRetries?: number;
}

export interface HttpSearchRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Serialised as JSON when an object; a string is sent as is (form bodies). */
  body?: unknown;
}

export interface BuildRequestInput {
  /** Without a trailing slash. */
  baseURL: string;
  /** '' for keyless services. */
  apiKey: string;
  query: string;
  options: SearchOptions;
  count: number;
}

export interface SendInput {
  providerId: string;
  request: HttpSearchRequest;
  settings: HttpSearchSettings;
  keyHint: string | undefined;
  signal: AbortSignal | undefined;
}

/** One engine's wire format; everything else (keys, retry, errors, hit clean-up) is shared. */
export interface SearchWireSpec<Body> {
  id: string;
  defaultBaseURL: string;
  /** The variable a user sets for the key; absent for keyless services. */
  keyVariable?: string;
  buildRequest(input: BuildRequestInput): HttpSearchRequest;
  /** The documented response shape, validated by requestJson unless `send` is given. */
  schema?: z.ZodType<Body>;
  /** A transport of its own (an HTML endpoint); by default a JSON request checked against `schema`. */
  send?(input: SendInput): Promise<Body>;
  toHits(body: Body): RawSearchHit[];
}

const defaultCount = 10;

/**
 * A SearchProvider from a wire spec: the key is checked at call time (a ConfigError naming the
 * variable), 401/403 become AuthenticationErrors naming it too, retryable failures go through
 * withRetry, and hits are cleaned up the same way for every engine.
 */
export function createHttpSearchProvider<Body>(
  spec: SearchWireSpec<Body>,
  settings: HttpSearchSettings = {},
): SearchProvider {
  return {
    specificationVersion: 'v1',
    id: spec.id,
    async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
      const count = options.count ?? defaultCount;
      const apiKey = requireKey(spec, settings.apiKey);
      const baseURL = (settings.baseURL ?? spec.defaultBaseURL).replace(/\/+$/, '');
      const request = spec.buildRequest({ baseURL, apiKey, query, options, count });
      const keyHint = spec.keyVariable;
      const send = spec.send ?? ((input: SendInput) => sendJson(spec, input));
      const body = await withRetry(
        () => send({ providerId: spec.id, request, settings, keyHint, signal: options.signal }),
        { maxRetries: settings.maxRetries ?? 2, signal: options.signal },
      );
      return toSearchHits(spec.toHits(body)).slice(0, count);
    },
  };
}

function requireKey(spec: SearchWireSpec<unknown>, apiKey: string | undefined): string {
  if (!spec.keyVariable) return '';
  if (apiKey) return apiKey;
  throw missingKeyError(spec.id, spec.keyVariable);
}

/** The error of an engine asked to search without its key, naming what to set. */
export function missingKeyError(providerId: string, setting: string): ConfigError {
  return new ConfigError(`the ${providerId} search provider needs an API key: set ${setting}`, {
    code: 'config_missing_key',
  });
}

function sendJson<Body>(spec: SearchWireSpec<Body>, input: SendInput): Promise<Body> {
  if (!spec.schema) throw new Error(`search provider ${spec.id} has neither a schema nor a send function`);
  return requestJson({
    providerId: input.providerId,
    url: input.request.url,
    method: input.request.method,
    headers: input.request.headers,
    body: input.request.body,
    schema: spec.schema,
    fetch: input.settings.fetch,
    timeoutMs: input.settings.timeoutMs ?? 15_000,
    signal: input.signal,
    keyHint: input.keyHint,
  });
}

/**
 * Language and country for engines that take them apart: "pt-BR" gives pt and br; an explicit
 * region wins over the one in the tag. Both lower-case, undefined when not asked for.
 */
export function splitLocale(options: SearchOptions): { language?: string; region?: string } {
  const [language, tagRegion] = options.language?.toLowerCase().split('-') ?? [];
  const region = (options.region ?? tagRegion)?.toLowerCase();
  return { ...(language ? { language } : {}), ...(region ? { region } : {}) };
}

/** `site:host query`, the operator every web engine understands, for engines without a site field. */
export function withSiteOperator(query: string, options: SearchOptions): string {
  return options.site ? `site:${options.site} ${query}` : query;
}

/** A result as an engine gives it, before clean-up: any field may be missing or null. */
export interface RawSearchHit {
  url?: string | null;
  title?: string | null;
  snippet?: string | null;
  /** Any date string the engine sends; kept only when it can be read. */
  date?: string | null;
}

/**
 * The one normalised hit shape: http(s) URLs only, each once, whitespace collapsed, dates as
 * ISO 8601 UTC when readable. Engines differ in what they leave out, not in what we return.
 */
export function toSearchHits(raw: readonly RawSearchHit[]): SearchHit[] {
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  for (const result of raw) {
    const url = result.url?.trim();
    if (!url || !isWebUrl(url) || seen.has(url)) continue;
    seen.add(url);
    const publishedAt = toIsoDate(result.date);
    hits.push({
      url,
      title: collapse(result.title),
      snippet: collapse(result.snippet),
      ...(publishedAt ? { publishedAt } : {}),
    });
  }
  return hits;
}

function isWebUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const protocol = new URL(url).protocol;
  return protocol === 'http:' || protocol === 'https:';
}

function collapse(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

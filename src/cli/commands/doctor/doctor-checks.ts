import * as z from 'zod';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { resolveProxySettings } from '../../../config/proxy-settings.js';
import { requireApiKey, resolveLlmSettings } from '../../../config/resolve-llm-settings.js';
import {
  isConfigError,
  isDeepSearchError,
  structuredOutputUnsupportedCode,
} from '../../../core/errors/index.js';
import { createOutboundFetch } from '../../../platform/http/outbound-fetch.js';
import { createSqliteCache, type SqliteDriverLoader } from '../../../platform/storage/sqlite-cache.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { plural } from '../../io/terminal-style.js';

/** One line of `deepsearch doctor`: what was checked, how it went, and what to do when it failed. */
export interface CheckResult {
  name:
    | 'proxy'
    | 'llm'
    | 'model'
    | 'context'
    | 'search'
    | 'reader'
    | 'browser'
    | 'cache'
    | 'redis'
    | 'postgres';
  ok: boolean;
  detail: string;
  fix?: string;
}

const checkTimeoutMs = 30_000;
const doctorSchema = z.object({ ok: z.boolean() });

/** Reachable, the model listed, JSON-schema output, one tiny call. */
export async function checkLlm(config: DeepSearchConfig, runtime: DeepSearchRuntime): Promise<CheckResult> {
  let where: string;
  try {
    const settings = resolveLlmSettings(config, 'agent');
    const apiKey = requireApiKey(settings);
    where = `${settings.provider} ${settings.model}${settings.baseURL ? ` at ${settings.baseURL}` : ''}`;
    const fetch = createOutboundFetch({ proxy: resolveProxySettings(config) });
    const listed = await listModels({
      provider: settings.provider,
      baseURL: settings.baseURL,
      apiKey,
      fetch,
    });
    if (listed && !listed.includes(settings.model)) {
      return {
        name: 'llm',
        ok: false,
        detail: `${where}: the server does not list this model`,
        fix: `set the model (DEEPSEARCH_LLM_MODEL, --llm-model or "llm.model") to one it serves: ${listed.slice(0, 8).join(', ') || 'none listed'}`,
      };
    }
    const started = Date.now();
    const schemaNote = await tinyCall(runtime);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    return {
      name: 'llm',
      ok: true,
      detail: `${where}: ${listed ? 'model listed, ' : ''}${schemaNote}, answered in ${seconds}s`,
    };
  } catch (error) {
    return failure(
      'llm',
      error,
      isConfigError(error)
        ? 'set what the line above names, or run deepsearch init to write a config file'
        : 'check the server is running and its URL, model and key (deepsearch ask --debug shows what is used)',
    );
  }
}

/** GET /models where the API has it (OpenAI and compatible servers); undefined when not checked. */
async function listModels({
  provider,
  baseURL,
  apiKey,
  fetch,
}: {
  provider: string;
  baseURL: string | undefined;
  apiKey: string | undefined;
  fetch: typeof globalThis.fetch;
}): Promise<string[] | undefined> {
  if (provider !== 'openai-compatible' && provider !== 'openai') return undefined;
  const base = (baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetch(`${base}/models`, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(10_000),
    });
  } catch (cause) {
    if (isDeepSearchError(cause)) throw cause; // a proxy's failure, which names the proxy
    throw new Error(`cannot reach ${base}: ${(cause as Error).message}`, { cause });
  }
  if (response.status === 401 || response.status === 403)
    throw new Error(`${base} refused the key (HTTP ${response.status})`);
  // Some servers have no /models: the tiny call is then the test.
  if (!response.ok) return undefined;
  const body = (await response.json().catch(() => undefined)) as
    | { data?: Array<{ id?: unknown }> }
    | undefined;
  return Array.isArray(body?.data) ? body.data.map((model) => String(model.id)) : undefined;
}

/** One call asking for {"ok": true} with a JSON schema; a server that refuses the schema is asked in prompt mode. */
async function tinyCall(runtime: DeepSearchRuntime): Promise<string> {
  const request = {
    role: 'agent' as const,
    system: 'You are a health check. Reply with JSON only.',
    prompt: 'Reply with {"ok": true}.',
    schema: doctorSchema,
    schemaName: 'health_check',
    maxOutputTokens: 50,
    signal: AbortSignal.timeout(checkTimeoutMs),
  };
  const before = runtime.llm.describe('agent').structuredOutput;
  await runtime.llm.generateObject(request);
  const after = runtime.llm.describe('agent').structuredOutput;
  if (before === 'json-schema' && after === 'prompt') {
    return 'JSON schema refused (auto mode answers in prompt mode; set llm.structuredOutput to prompt to skip the first try)';
  }
  return after === 'json-schema' ? 'JSON schema supported' : 'prompt mode (llm.structuredOutput is prompt)';
}

export async function checkSearch(runtime: DeepSearchRuntime): Promise<CheckResult> {
  try {
    const hits = await runtime.search.search('wikipedia', {
      count: 3,
      signal: AbortSignal.timeout(checkTimeoutMs),
    });
    if (hits.length === 0) {
      return {
        name: 'search',
        ok: false,
        detail: `${runtime.search.id}: the query "wikipedia" found nothing`,
        fix: searchFix(runtime.search.id, 'check the engines enabled on your SearXNG instance'),
      };
    }
    return {
      name: 'search',
      ok: true,
      detail: `${runtime.search.id}: ${plural(hits.length, 'hit')} for "wikipedia"`,
    };
  } catch (error) {
    return failure(
      'search',
      error,
      searchFix(
        runtime.search.id,
        isConfigError(error) ? 'set what the line above names' : "check the search provider's URL or key",
      ),
    );
  }
}

/**
 * The way out of a failed search check: DuckDuckGo (no setup) as the fallback, unless DuckDuckGo
 * is what failed, when it is SearXNG or a keyed engine instead.
 */
export function searchFix(providerIds: string, first: string): string {
  const ids = providerIds.split(',');
  if (!ids.includes('duckduckgo')) return `${first}, or search without setup: --search-provider duckduckgo`;
  const rest = ids.length > 1 ? `${first}; ` : '';
  return `${rest}DuckDuckGo refuses or blocks requests from some networks: run SearXNG (--searxng-url, see "A SearXNG instance" in README.md) or use a keyed engine (--search-provider brave with BRAVE_API_KEY)`;
}

export async function checkReader(runtime: DeepSearchRuntime, url: string): Promise<CheckResult> {
  try {
    const page = await runtime.reader.read(url, { signal: AbortSignal.timeout(checkTimeoutMs) });
    const text = `${url}: ${plural(page.text.length, 'character')} of text`;
    // An app shell left unrendered (builtin reader, or no working Chromium): why it reads empty.
    const shell = page.emptyShell ? ', an app shell whose text its scripts write (see the browser line)' : '';
    return { name: 'reader', ok: true, detail: `${text}${shell}` };
  } catch (error) {
    return failure(
      'reader',
      error,
      'check the network (a proxy?) or name another page with --page; a local address needs --allow-private-network',
    );
  }
}

export function checkCache(
  config: DeepSearchConfig,
  file: string | undefined,
  loadDriver: SqliteDriverLoader | undefined,
): CheckResult {
  if (!config.cache.enabled || !file)
    return { name: 'cache', ok: true, detail: 'off (--no-cache or DEEPSEARCH_NO_CACHE)' };
  const cache = createSqliteCache({ file, loadDriver });
  try {
    cache.prune();
    return { name: 'cache', ok: true, detail: `native module loads, ${file} opens` };
  } catch (error) {
    return failure(
      'cache',
      error,
      'npm rebuild better-sqlite3 (python3, make, a C++ compiler), or run with --no-cache',
    );
  } finally {
    cache.close();
  }
}

function failure(name: CheckResult['name'], error: unknown, fix: string): CheckResult {
  const message = error instanceof Error ? error.message : String(error);
  const known = isDeepSearchError(error) && error.code === structuredOutputUnsupportedCode;
  return { name, ok: false, detail: message, fix: known ? 'set llm.structuredOutput to prompt' : fix };
}

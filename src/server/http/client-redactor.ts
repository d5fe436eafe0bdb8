import type { DeepSearchConfig } from '../../config/config-schema.js';
import { resolveProxySettings } from '../../config/proxy-settings.js';
import type { Redactor } from '../../core/errors/redact-secrets.js';

/** What an internal address becomes in what a client is sent. */
export const hiddenAddress = '[internal address]';

const endpointSchemes = new Set([
  'http:',
  'https:',
  'redis:',
  'rediss:',
  'postgres:',
  'postgresql:',
  'socks5:',
]);

/**
 * The redactor for text a client is sent (event streams, progress, a failed run's error): the
 * runtime's secrets, and the addresses of the services behind the server (the LLM, embedding and
 * rerank servers, Redis, Postgres, the proxy) as URLs and as `host:port`, so
 * a failure's detail (`connect ECONNREFUSED 10.0.0.5:8080`) tells a client nothing about the
 * network behind the server. The log keeps them.
 */
export function createClientRedactor(config: DeepSearchConfig, redact: Redactor): Redactor {
  const proxies = resolveProxySettings(config);
  // The services no page is ever read from. Search and reader endpoints are left out: a SearXNG
  // or a reader on the same host as the pages a run reads would hide those pages' addresses.
  const services = [config.llm, config.embedding, config.rerank, config.scale];
  const urls = [...configUrls(services), proxies.http?.url, proxies.https?.url].filter(
    (value): value is string => value !== undefined,
  );
  const forms = new Set<string>();
  for (const value of urls) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    if (!endpointSchemes.has(url.protocol) || !url.host) continue;
    const path = url.pathname.replace(/\/+$/, '');
    if (path) forms.add(`${url.origin}${path}`);
    forms.add(url.origin !== 'null' ? url.origin : `${url.protocol}//${url.host}`);
    // `host:port` as connection errors print it, the port spelt out even when it is the default.
    const port = url.port || { 'http:': '80', 'https:': '443' }[url.protocol];
    if (port) forms.add(`${url.hostname}:${port}`);
  }
  const ordered = [...forms].filter((form) => form.length > 4).sort((a, b) => b.length - a.length);
  return (text) => {
    let out = redact(text);
    for (const form of ordered) if (out.includes(form)) out = out.split(form).join(hiddenAddress);
    return out;
  };
}

/** Every string in these config sections that is a URL of one of the endpoint schemes. */
function configUrls(sections: readonly unknown[]): string[] {
  const found: string[] = [];
  const stack: unknown[] = [...sections];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) found.push(value);
    } else if (Array.isArray(value)) stack.push(...value);
    else if (typeof value === 'object' && value !== null) stack.push(...Object.values(value));
  }
  return found;
}

const byRuntime = new WeakMap<object, Redactor>();

/** The client redactor of a runtime, made once. */
export function clientRedactorOf(runtime: { config: DeepSearchConfig; redact: Redactor }): Redactor {
  let redactor = byRuntime.get(runtime);
  if (!redactor) {
    redactor = createClientRedactor(runtime.config, runtime.redact);
    byRuntime.set(runtime, redactor);
  }
  return redactor;
}

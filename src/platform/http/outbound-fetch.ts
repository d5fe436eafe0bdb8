import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import type { ProxyChoice, ProxySettings } from '../../config/proxy-settings.js';
import { isAbortError } from '../../core/errors/index.js';
import { createDirectFetch, directFetch } from './direct-fetch.js';
import { type ConnectLookup, createGuardedLookup, type GuardedLookupOptions } from './guarded-lookup.js';
import { assertUrlAllowed } from './network-guard.js';
import { toProxyError } from './proxy-error.js';
import { createProxyRoute } from './proxy-route.js';

export interface OutboundFetchOptions {
  /** Proxies and NO_PROXY, from resolveProxySettings(config); without: every request goes direct. */
  proxy?: ProxySettings;
  /**
   * The network guard, for URLs nobody vouched for (pages): a direct request is judged on the
   * address its connection dials; a proxied one before it is handed to the proxy, by
   * assertUrlAllowed with `viaProxy` (the proxy resolves the name, so pinning is the proxy's job).
   * Without it (LLM, search and other configured services), nothing is refused.
   */
  guard?: GuardedLookupOptions;
}

type FetchInput = string | URL | Request;

const loadUndici = () => import('undici');

/**
 * The one fetch for outbound requests: picks per request the dispatcher (direct, or the proxy of
 * the URL's scheme unless NO_PROXY names its host), applies the guard, and turns a proxy's failure
 * into an error that names the proxy and what set it. Every provider, the reader, doctor and local
 * discovery take it; so can anything new that fetches (a model download).
 *
 * A direct request goes to directFetch (node:http, a third less CPU a call than Node's fetch, same
 * answers), dialling through the guarded lookup when there is a guard. A proxied one, and what a
 * guarded directFetch hands on, go to the undici package's fetch, the one that takes its
 * dispatchers (Node's global fetch bundles its own copy, which may differ); the package is loaded,
 * and the dispatchers (connection pools) made, on the first such request, never at import.
 */
export function createOutboundFetch(options: OutboundFetchOptions = {}): typeof globalThis.fetch {
  const route = createProxyRoute(options.proxy);
  const guard = options.guard;
  const lookup = guard && createGuardedLookup(guard);
  const dispatchers = createDispatchers(lookup);
  // Guarded: what directFetch does not send itself goes to undici's fetch with the guarded Agent,
  // so nothing leaves unguarded.
  const direct = lookup
    ? createDirectFetch({
        lookup,
        fallback: (input, init) => dispatchers.send(...splitRequest(input, init), undefined),
      })
    : directFetch;
  const outboundFetch = async (input: FetchInput, init?: RequestInit): Promise<Response> => {
    const [url, requestInit] = splitRequest(input, init);
    const proxy = route(url);
    if (!proxy) return direct(input, init);
    if (guard) await assertUrlAllowed(url.href, { ...guard, viaProxy: true });
    try {
      return await dispatchers.send(url, requestInit, proxy);
    } catch (error) {
      if (requestInit?.signal?.aborted || isAbortError(error)) throw error;
      throw toProxyError(error, { proxy, url });
    }
  };
  return outboundFetch as typeof globalThis.fetch;
}

/** undici's fetch with a direct Agent (guarded or not) or a ProxyAgent per proxy, made on first use. */
function createDispatchers(lookup: ConnectLookup | undefined) {
  let undici: ReturnType<typeof loadUndici> | undefined;
  let direct: Agent | undefined;
  const proxies = new Map<string, ProxyAgent>();
  const dispatcherFor = (loaded: Awaited<ReturnType<typeof loadUndici>>, proxy: ProxyChoice | undefined) => {
    if (!proxy) {
      direct ??= new loaded.Agent(lookup ? { connect: { lookup } } : {});
      return direct;
    }
    let agent = proxies.get(proxy.url);
    if (!agent) {
      // Plain http goes to the proxy as a forwarded request, as curl does (proxies often allow
      // CONNECT to port 443 only); https through a CONNECT tunnel.
      agent = new loaded.ProxyAgent({ uri: proxy.url, proxyTunnel: false });
      proxies.set(proxy.url, agent);
    }
    return agent;
  };
  return {
    async send(url: URL, init: RequestInit | undefined, proxy: ProxyChoice | undefined): Promise<Response> {
      undici ??= loadUndici();
      const loaded = await undici;
      const dispatcher: Dispatcher = dispatcherFor(loaded, proxy);
      return loaded.fetch(url, {
        ...(init as Parameters<typeof loaded.fetch>[1]),
        dispatcher,
      }) as unknown as Promise<Response>;
    },
  };
}

/**
 * The URL and init of a request. undici's fetch does not know the global Request class (another
 * copy of undici made it), so a Request is taken apart into its URL and fields.
 */
function splitRequest(input: FetchInput, init: RequestInit | undefined): [URL, RequestInit | undefined] {
  if (typeof input === 'string' || input instanceof URL) return [new URL(input), init];
  const fromRequest: RequestInit = {
    method: input.method,
    headers: input.headers,
    signal: input.signal,
    redirect: input.redirect,
    ...(input.body ? { body: input.body, duplex: 'half' } : {}),
  } as RequestInit;
  return [new URL(input.url), { ...fromRequest, ...init }];
}

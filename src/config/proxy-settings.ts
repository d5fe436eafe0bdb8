import { basename } from 'node:path';
import { settingOrigin } from './config-origins.js';
import type { DeepSearchConfig } from './config-schema.js';

/** A proxy and what set it, for messages ("set by HTTPS_PROXY"). */
export interface ProxyChoice {
  /** The proxy URL, credentials included: a secret, never printed (maskProxyUrl). */
  url: string;
  /** The variable, flag or config key that chose it, e.g. `HTTPS_PROXY`, `--proxy`. */
  setBy: string;
}

/** Where outbound requests go: through a proxy per URL scheme, except to the hosts of noProxy. */
export interface ProxySettings {
  /** For http: URLs; undefined: direct. */
  http?: ProxyChoice;
  /** For https: URLs; undefined: direct. */
  https?: ProxyChoice;
  /** NO_PROXY entries (hosts, .domains, *, host:port, CIDR); reached directly. */
  noProxy: readonly string[];
  /** What set noProxy; undefined when it is the default list. */
  noProxySetBy?: string;
}

/** Loopback model servers (Ollama, LM Studio...) are never sent to a corporate proxy unless NO_PROXY says so. */
export const defaultNoProxy: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/**
 * The proxies a config asks for: `network.proxy` (--proxy) for every scheme, else
 * `network.httpsProxy` / `network.httpProxy` (HTTPS_PROXY / HTTP_PROXY), https falling back to
 * the http proxy as undici's EnvHttpProxyAgent does. `none` is no proxy. This is the one place
 * that says which proxy a request takes: the outbound fetch and anything that starts its own
 * client (a browser) read it here.
 */
export function resolveProxySettings(config: DeepSearchConfig): ProxySettings {
  const network = config.network;
  const choice = (path: string, url: string | undefined): ProxyChoice | undefined =>
    url === undefined || url === 'none' ? undefined : { url, setBy: describeOrigin(config, path) };
  const all = network.proxy === undefined ? undefined : choice('network.proxy', network.proxy);
  const explicit = network.proxy !== undefined;
  const http = explicit ? all : choice('network.httpProxy', network.httpProxy);
  const https = explicit
    ? all
    : network.httpsProxy !== undefined
      ? choice('network.httpsProxy', network.httpsProxy)
      : http;
  return {
    ...(http ? { http } : {}),
    ...(https ? { https } : {}),
    noProxy: network.noProxy ?? defaultNoProxy,
    ...(network.noProxy ? { noProxySetBy: describeOrigin(config, 'network.noProxy') } : {}),
  };
}

/** A variable or flag as it is; a config file as `"network.proxy" in deepsearch.config.json`. */
function describeOrigin(config: DeepSearchConfig, path: string): string {
  const origin = settingOrigin(config, path);
  if (origin && (origin.startsWith('--') || /^[A-Za-z_]+$/.test(origin))) return origin;
  return origin ? `"${path}" in ${basename(origin)}` : `"${path}"`;
}

/** The proxy URL to print: user and password replaced, so the proxy can be named anywhere. */
export function maskProxyUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return parsed.href;
    parsed.username = '***';
    parsed.password = parsed.password ? '***' : '';
    return parsed.href;
  } catch {
    return '(invalid proxy URL)';
  }
}

/**
 * The secrets a proxy URL carries, for the redactor: the password as written and decoded, and the
 * Basic token sent in Proxy-Authorization (a proxy's error page may echo it).
 */
export function proxySecrets(settings: ProxySettings): string[] {
  const secrets: string[] = [];
  for (const choice of [settings.http, settings.https]) {
    if (!choice) continue;
    const parsed = new URL(choice.url);
    if (!parsed.password) continue;
    const username = decodeURIComponent(parsed.username);
    const password = decodeURIComponent(parsed.password);
    secrets.push(parsed.password, password, Buffer.from(`${username}:${password}`).toString('base64'));
  }
  return secrets;
}

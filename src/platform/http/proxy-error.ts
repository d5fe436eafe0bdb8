import { maskProxyUrl, type ProxyChoice } from '../../config/proxy-settings.js';
import { AuthenticationError, ProviderError } from '../../core/errors/index.js';
import { describeNetworkError, displayUrl, networkErrorCode } from './describe-network-error.js';

/** Errors of the connection to the proxy itself: with a proxy, the client dials nothing else. */
const connectCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Turns a fetch that failed through a proxy into an error that names the proxy (credentials
 * masked) and what set it: the proxy is down (proxy_unreachable), it wants credentials (407,
 * proxy_auth_required) or it refused the tunnel (proxy_refused, with its status). Anything else
 * is a network failure "through the proxy", still naming it.
 */
export function toProxyError(error: unknown, options: { proxy: ProxyChoice; url: URL }): ProviderError {
  const proxy = `the proxy ${maskProxyUrl(options.proxy.url)} (set by ${options.proxy.setBy})`;
  const target = displayUrl(options.url.href);
  const status = proxyStatus(error);
  const common = { providerId: 'proxy', cause: error };
  if (status === 407) {
    // Credentials already in the URL were sent: asking to put them there is no help.
    const advice = hasCredentials(options.proxy.url)
      ? 'it rejected the user and password in the proxy URL; check them (characters such as @ : / in a password are written %40 %3A %2F)'
      : 'put them in the proxy URL, http://user:password@host:port';
    return new AuthenticationError(`${proxy} asks for credentials (HTTP 407) to reach ${target}: ${advice}`, {
      ...common,
      code: 'proxy_auth_required',
      statusCode: 407,
    });
  }
  if (status !== undefined) {
    return new ProviderError(
      `${proxy} refused to connect to ${hostAndPort(options.url)} (HTTP ${status} to CONNECT): its policy may block this host or port`,
      { ...common, code: 'proxy_refused', statusCode: status, isRetryable: status >= 500 },
    );
  }
  const reason = describeNetworkError(error);
  if (connectCodes.has(networkErrorCode(error) ?? '')) {
    return new ProviderError(`cannot reach ${proxy} to fetch ${target}: ${reason}`, {
      ...common,
      code: 'proxy_unreachable',
      isRetryable: true,
    });
  }
  return new ProviderError(`cannot reach ${target} through ${proxy}: ${reason}`, {
    ...common,
    code: 'provider_unreachable',
    isRetryable: true,
  });
}

/**
 * The status a proxy answered instead of carrying the request. undici reports it only in a
 * message: "Proxy response (403) !== 200 when HTTP Tunneling" for a CONNECT, "Proxy
 * Authentication Required (407)" for a forwarded request (undici 6; the tests pin both).
 */
function proxyStatus(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    const match = /^Proxy response \((\d{3})\) !== 200|^Proxy Authentication Required \((407)\)/.exec(
      current.message,
    );
    if (match) return Number(match[1] ?? match[2]);
    current = current.cause;
  }
  return undefined;
}

function hasCredentials(proxyUrl: string): boolean {
  try {
    const url = new URL(proxyUrl);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/** host:port as the CONNECT asked for it, the default port written out. */
function hostAndPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}`;
}

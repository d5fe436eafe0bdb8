import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { maskProxyUrl, type ProxySettings, resolveProxySettings } from '../../../config/proxy-settings.js';
import { displayUrl } from '../../../platform/http/describe-network-error.js';
import { createOutboundFetch } from '../../../platform/http/outbound-fetch.js';
import { createProxyRoute } from '../../../platform/http/proxy-route.js';
import type { CheckResult } from './doctor-checks.js';

const proxyFix =
  'check the proxy URL and its credentials (http://user:password@host:port) where the line above says ' +
  'it was set, or bypass it for a host with NO_PROXY / --proxy-bypass, or --proxy none';

/**
 * The proxy every outbound request uses (credentials masked, and what set it), the hosts that
 * bypass it, and one request through it: the page the reader check then reads, so a proxy that
 * is down, wants credentials or refuses the tunnel is named here rather than as a reader failure.
 */
export async function checkProxy(config: DeepSearchConfig, page: string): Promise<CheckResult> {
  const settings = resolveProxySettings(config);
  if (!settings.http && !settings.https) {
    return {
      name: 'proxy',
      ok: true,
      detail: 'none, connections are direct (HTTPS_PROXY, HTTP_PROXY or --proxy would set one)',
    };
  }
  const used = `${describeProxies(settings)}; ${describeBypass(settings)}`;
  if (!URL.canParse(page) || !createProxyRoute(settings)(new URL(page))) {
    return { name: 'proxy', ok: true, detail: `${used}; not tried: ${displayUrl(page)} bypasses it` };
  }
  const outbound = createOutboundFetch({
    proxy: settings,
    guard: { allowPrivateNetwork: config.reader.allowPrivateNetwork },
  });
  try {
    const response = await outbound(page, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
    await response.body?.cancel();
    return {
      name: 'proxy',
      ok: true,
      detail: `${used}; carried a request to ${displayUrl(page)} (HTTP ${response.status})`,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name: 'proxy', ok: false, detail: `${used}; ${message}`, fix: proxyFix };
  }
}

/** "http://***:***@proxy:3128/ (HTTPS_PROXY) for http and https", or one line per scheme. */
function describeProxies(settings: ProxySettings): string {
  const { http, https } = settings;
  const one = (choice: { url: string; setBy: string }) => `${maskProxyUrl(choice.url)} (${choice.setBy})`;
  if (http && https && http.url === https.url && http.setBy === https.setBy)
    return `${one(http)} for http and https`;
  return [
    http ? `http via ${one(http)}` : 'http direct',
    https ? `https via ${one(https)}` : 'https direct',
  ].join(', ');
}

function describeBypass(settings: ProxySettings): string {
  const list = settings.noProxy.length > 0 ? settings.noProxy.join(',') : 'none';
  return `bypassed for ${list} (${settings.noProxySetBy ?? 'default NO_PROXY'})`;
}

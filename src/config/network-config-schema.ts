import * as z from 'zod';
import { setting } from './setting.js';

/** Values of a proxy setting that mean "connect directly" (and override a proxy set elsewhere). */
export const directProxyValues = ['none', 'off', 'direct'] as const;

/**
 * A proxy URL as HTTPS_PROXY and curl take it: `http://user:pass@proxy.corp:3128`, the scheme
 * optional (http: assumed). Credentials are allowed here (they are how proxies take them); they
 * are secrets (configSecrets) and masked wherever the proxy is named. `none` (or '') is no proxy.
 * undici's ProxyAgent speaks to http: and https: proxies only, so socks5: is refused with a reason.
 */
const proxyUrl = z
  .string()
  .transform((value) => value.trim())
  .transform((value, context) => {
    const lower = value.toLowerCase();
    if (value === '' || (directProxyValues as readonly string[]).includes(lower)) return 'none';
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
    let parsed: URL;
    try {
      parsed = new URL(withScheme);
    } catch {
      context.addIssue({
        code: 'custom',
        message: 'must be a proxy URL like http://proxy.corp:3128 (or none)',
      });
      return z.NEVER;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      context.addIssue({
        code: 'custom',
        message: `must be an http:// or https:// proxy (${parsed.protocol} proxies are not supported)`,
      });
      return z.NEVER;
    }
    return parsed.href;
  });

/** NO_PROXY: a comma- or space-separated string (as the variable) or a list (in the config file). */
const noProxyList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) =>
    (typeof value === 'string' ? value.split(/[\s,]+/) : value)
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  );

/**
 * Outbound connections (see proxy-settings.ts for how these combine). `httpProxy`, `httpsProxy`
 * and `noProxy` come from HTTP_PROXY, HTTPS_PROXY and NO_PROXY unless the config file or a flag
 * sets them; `proxy` (--proxy) is one proxy for every scheme and wins over both variables.
 */
export const networkConfigSchema = z
  .object({
    proxy: setting(proxyUrl.optional(), {
      flag: 'proxy',
      secret: true,
      description:
        "proxy for every outbound request, e.g. http://user:pass@proxy.corp:3128, or 'none' (overrides HTTPS_PROXY/HTTP_PROXY)",
    }),
    httpProxy: setting(proxyUrl.optional(), {
      proxyEnv: ['http_proxy', 'HTTP_PROXY'],
      secret: true,
      description: 'proxy for http requests, and for https when no https proxy is set',
    }),
    httpsProxy: setting(proxyUrl.optional(), {
      proxyEnv: ['https_proxy', 'HTTPS_PROXY'],
      secret: true,
      description: 'proxy for https requests (lower-case https_proxy first, as curl does)',
    }),
    // Unset: localhost, 127.0.0.1 and ::1. An empty list: none.
    noProxy: setting(noProxyList.optional(), {
      flag: 'proxy-bypass',
      proxyEnv: ['no_proxy', 'NO_PROXY'],
      description:
        'comma-separated hosts reached without the proxy: names, .domains, *, host:port, CIDR (overrides NO_PROXY)',
    }),
  })
  .strict();

import ipaddr from 'ipaddr.js';
import type { ProxyChoice, ProxySettings } from '../../config/proxy-settings.js';

/** Which proxy a URL goes through, or undefined for a direct connection. */
export type ProxyRoute = (url: URL) => ProxyChoice | undefined;

/** The proxy of the URL's scheme unless NO_PROXY names its host. */
export function createProxyRoute(settings: ProxySettings | undefined): ProxyRoute {
  if (!settings || (!settings.http && !settings.https)) return () => undefined;
  const bypasses = createNoProxyMatcher(settings.noProxy);
  return (url) => {
    const proxy =
      url.protocol === 'https:' ? settings.https : url.protocol === 'http:' ? settings.http : undefined;
    return proxy && !bypasses(url) ? proxy : undefined;
  };
}

type NoProxyEntry =
  | { kind: 'any' }
  | { kind: 'name'; name: string; port?: number }
  | { kind: 'address'; address: ipaddr.IPv4 | ipaddr.IPv6; port?: number }
  | { kind: 'range'; range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

const defaultPorts: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/**
 * NO_PROXY as curl reads it, plus CIDR, which undici's EnvHttpProxyAgent does not parse:
 * `*` (everything), a name (`example.com`, `.example.com` and `*.example.com` all match the domain
 * and its subdomains), an IP address (`::1` and `[::1]` both), any of these with `:port`, and
 * ranges (`10.0.0.0/8`, `fd00::/8`). Ranges and addresses match IP literals in URLs only: names
 * are not resolved to decide (no DNS query for a request the proxy will resolve anyway).
 */
export function createNoProxyMatcher(entries: readonly string[]): (url: URL) => boolean {
  const parsed = entries.map(parseEntry).filter((entry): entry is NoProxyEntry => entry !== undefined);
  if (parsed.length === 0) return () => false;
  return (url) => {
    const host = url.hostname
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, '')
      .toLowerCase();
    const port = url.port ? Number(url.port) : defaultPorts[url.protocol];
    const address = parseIp(host);
    return parsed.some((entry) => matches(entry, host, port, address));
  };
}

function matches(
  entry: NoProxyEntry,
  host: string,
  port: number | undefined,
  address: ipaddr.IPv4 | ipaddr.IPv6 | undefined,
): boolean {
  switch (entry.kind) {
    case 'any':
      return true;
    case 'range':
      return address !== undefined && address.kind() === entry.range[0].kind() && address.match(entry.range);
    case 'address':
      return (
        (entry.port === undefined || entry.port === port) &&
        address !== undefined &&
        address.kind() === entry.address.kind() &&
        address.toNormalizedString() === entry.address.toNormalizedString()
      );
    case 'name':
      return (
        (entry.port === undefined || entry.port === port) &&
        (host === entry.name || host.endsWith(`.${entry.name}`))
      );
  }
}

function parseEntry(raw: string): NoProxyEntry | undefined {
  const entry = raw.trim().toLowerCase();
  if (entry === '') return undefined;
  if (entry === '*') return { kind: 'any' };
  if (entry.includes('/')) {
    try {
      return { kind: 'range', range: ipaddr.parseCIDR(entry.replace(/^\[(.*)\](\/\d+)$/, '$1$2')) };
    } catch {
      return undefined; // not a range: an entry nothing can match
    }
  }
  // [v6]:port, or a bare v6 address (several colons, no port), or name/v4 with an optional :port.
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const [host, port] = bracketed
    ? [bracketed[1]!, bracketed[2]]
    : entry.split(':').length > 2
      ? [entry, undefined]
      : (entry.split(':') as [string, string | undefined]);
  const portNumber = port === undefined ? undefined : Number(port);
  if (portNumber !== undefined && !Number.isInteger(portNumber)) return undefined;
  const withPort = portNumber === undefined ? {} : { port: portNumber };
  const address = parseIp(host);
  if (address) return { kind: 'address', address, ...withPort };
  const name = host.replace(/^\*?\./, '').replace(/\.$/, '');
  return name === '' ? undefined : { kind: 'name', name, ...withPort };
}

/** Dotted-decimal IPv4 or IPv6 only: ipaddr.isValid would take `10` or `0x7f.1` for addresses too. */
function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  return ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text) : undefined;
}

import { promises as dns } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { BlockedUrlError } from '../../core/errors/index.js';
import { displayUrl } from './describe-network-error.js';

/** Resolves a host name to every address it has (A and AAAA). */
export type HostLookup = (hostname: string) => Promise<string[]>;

export interface AssertUrlAllowedOptions {
  allowPrivateNetwork: boolean;
  /** Injectable for tests; defaults to the system resolver (dns.lookup, all addresses). */
  lookup?: HostLookup;
  /**
   * The request goes through a proxy, which resolves the name itself. Behind one, local DNS often
   * knows no public name: a name that does not resolve here is let through to the proxy, unless
   * it looks internal (isInternalName), since the proxy may well resolve that into the intranet.
   */
  viaProxy?: boolean;
}

const ipv4Reasons: Readonly<Record<string, string>> = {
  unspecified: 'unspecified address',
  broadcast: 'broadcast address',
  multicast: 'multicast address',
  linkLocal: 'link-local address',
  loopback: 'loopback address',
  carrierGradeNat: 'carrier-grade NAT address',
  private: 'private network address',
};

const ipv6Reasons: Readonly<Record<string, string>> = {
  unspecified: 'unspecified address',
  linkLocal: 'link-local address',
  multicast: 'multicast address',
  loopback: 'loopback address',
  uniqueLocal: 'unique-local address',
};

// Cloud metadata services hand out credentials; name them so the refusal is not a mystery.
const metadataAddresses = new Set(['169.254.169.254', 'fd00:ec2:0:0:0:0:0:254']);

/** Global unicast (2000::/3): everything outside it is special-purpose or not allocated. */
const globalUnicast = ipaddr.IPv6.parseCIDR('2000::/3');
/** Local-use NAT64 prefix (RFC 8215): translates into whatever network the operator chose. */
const localNat64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');

/**
 * Why an address must not be fetched, or undefined when it is a public unicast address.
 * An allow-list at heart: IPv4 must be plain unicast, IPv6 global unicast; IPv6 forms that embed
 * an IPv4 address (mapped, translated, NAT64, 6to4, Teredo) are judged by the address they embed.
 */
export function describeNonPublicAddress(ip: string): string | undefined {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(ip);
  } catch {
    return 'not an IP address';
  }
  if (address.kind() === 'ipv4') return describeIpv4(address as ipaddr.IPv4);
  return describeIpv6(address as ipaddr.IPv6);
}

export function isPublicAddress(ip: string): boolean {
  return describeNonPublicAddress(ip) === undefined;
}

function describeIpv4(address: ipaddr.IPv4): string | undefined {
  if (metadataAddresses.has(address.toNormalizedString())) return 'cloud metadata address';
  const range = address.range();
  if (range === 'unicast') return undefined;
  return ipv4Reasons[range] ?? 'reserved address';
}

function describeIpv6(address: ipaddr.IPv6): string | undefined {
  if (metadataAddresses.has(address.toNormalizedString())) return 'cloud metadata address';
  if (address.match(localNat64)) return 'local-use NAT64 address';
  const embedded = embeddedIpv4(address);
  if (embedded.length > 0) {
    for (const ipv4 of embedded) {
      const reason = describeIpv4(ipv4);
      if (reason) return `${reason} (${ipv4.toString()} inside ${address.toString()})`;
    }
    return undefined;
  }
  const range = address.range();
  if (range !== 'unicast' || !address.match(globalUnicast)) {
    return ipv6Reasons[range] ?? 'reserved address';
  }
  return undefined;
}

/** The IPv4 addresses an IPv6 address carries, for the forms that route to them. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const parts = address.parts;
  const fromWords = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [fromWords(parts[6]!, parts[7]!)];
    case '6to4':
      return [fromWords(parts[1]!, parts[2]!)];
    case 'teredo':
      // Server in words 2-3; the client address is stored inverted in words 6-7 (RFC 4380).
      return [fromWords(parts[2]!, parts[3]!), fromWords(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff)];
    default:
      return [];
  }
}

/** True for localhost and its subdomains (RFC 6761), which resolve to loopback by convention. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** URL.hostname keeps the brackets of an IPv6 literal; ipaddr wants them off. */
function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** After URL parsing an IPv4 host is always dotted decimal, so no other spelling needs handling. */
function isIpLiteral(hostname: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(hostname) || ipaddr.IPv6.isValid(hostname);
}

/**
 * Sync, no DNS: true when the URL's host is localhost or an IP literal that is not public.
 * Used to drop search hits before anyone tries to read them; names that resolve to private
 * addresses are caught later, by assertUrlAllowed, when the page is fetched.
 */
export function isPrivateHostLiteral(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const hostname = bareHostname(parsed);
  if (isLocalhostName(hostname)) return true;
  return isIpLiteral(hostname) && !isPublicAddress(hostname);
}

/**
 * Refuses, before any connection, a URL the reader must not fetch: a scheme other than http(s),
 * or (unless allowPrivateNetwork) a host that is, or resolves to, a non-public address. A name with
 * several addresses is refused if any one is private, since the connection may pick that one.
 * Call it before every hop of a redirect chain. The URL parser has already turned spellings such
 * as http://2130706433/ or http://0177.0.0.1/ into dotted decimal.
 */
export async function assertUrlAllowed(url: string, options: AssertUrlAllowedOptions): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (cause) {
    throw new BlockedUrlError(`refusing to fetch ${JSON.stringify(url)}: not a valid URL`, { url, cause });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BlockedUrlError(
      `refusing to fetch ${displayUrl(url)}: only http and https URLs can be fetched (got ${parsed.protocol})`,
      { url },
    );
  }
  if (options.allowPrivateNetwork) return;
  const hostname = bareHostname(parsed);
  const refuse = (reason: string): never => {
    throw new BlockedUrlError(
      `refusing to fetch ${displayUrl(url)}: ${reason} (use --allow-private-network to allow)`,
      { url },
    );
  };
  if (isLocalhostName(hostname)) refuse('localhost');
  if (isIpLiteral(hostname)) {
    const reason = describeNonPublicAddress(hostname);
    if (reason) refuse(reason);
    return;
  }
  let addresses: string[];
  try {
    addresses = await (options.lookup ?? lookupAllAddresses)(hostname);
  } catch (error) {
    if (!options.viaProxy) throw error;
    if (isInternalName(hostname)) {
      refuse(`${hostname} does not resolve here and looks like an internal name the proxy would resolve`);
    }
    return;
  }
  const reason = describeResolvedAddresses(hostname, addresses);
  if (reason) refuse(reason);
}

/** Suffixes used for names inside a network (RFC 6762 .local, RFC 8375 .home.arpa, and common private ones). */
const internalSuffixes = /\.(local|localdomain|internal|intranet|corp|home|lan|private|home\.arpa)$/;

/**
 * A name that only a resolver inside a network would know: one label (`intranet`, `metadata`) or
 * a private-use suffix (`metadata.google.internal`, `wiki.corp`). Public names have a dot and a
 * public suffix.
 */
export function isInternalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return !name.includes('.') || internalSuffixes.test(name);
}

/** Why a name's addresses must not be connected to: any one that is not public is enough. */
export function describeResolvedAddresses(
  hostname: string,
  addresses: readonly string[],
): string | undefined {
  for (const address of addresses) {
    const reason = describeNonPublicAddress(address);
    if (reason) return `${hostname} resolves to ${address}, a ${reason}`;
  }
  return undefined;
}

/** The system resolver (dns.lookup: hosts file, then DNS), every A and AAAA address. */
export async function lookupAllAddresses(hostname: string): Promise<string[]> {
  const results = await dns.lookup(hostname, { all: true, verbatim: true });
  return results.map((result) => result.address);
}

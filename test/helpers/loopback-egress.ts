import { connect, isIP } from 'node:net';
import type { ConnectLookup } from '../../src/platform/http/guarded-lookup.js';
import type { HostLookup } from '../../src/platform/http/network-guard.js';
import type { DialTunnel } from '../../src/providers/reader/browser/guard-tunnel.js';

export interface LoopbackEgressOptions {
  /** What the test resolver answers per name; other names are not found. */
  addresses: Readonly<Record<string, readonly string[]>>;
  /** Names whose plain-http requests go to `httpBase` (a server on 127.0.0.1). */
  webHosts: readonly string[];
  /** http://127.0.0.1:PORT: where allowed plain-http requests land, path and query kept. */
  httpBase: string;
  /** The 127.0.0.1 port allowed tunnels land on. */
  tunnelPort: number;
}

/** The guard proxy's way out in tests: a resolver, an onward fetch and a dial that stay on loopback. */
export interface LoopbackEgress {
  lookup: HostLookup;
  fetch: typeof globalThis.fetch;
  dial: DialTunnel;
  /** Every URL the onward fetch was asked for, allowed or not. */
  readonly fetched: string[];
  /** Every host:port a tunnel was dialled to. */
  readonly dialled: string[];
}

/**
 * Lets a test run the network guard on names with public and private addresses while no packet
 * leaves 127.0.0.1: the guard resolves names with the test resolver; a plain-http request it lets
 * through is fetched from the loopback server (any other host reaching the fetch throws: the
 * guard should have refused it); a tunnel is dialled by name with the guard's own connect-time
 * lookup, and only once that lookup allows the address is the connection made, to 127.0.0.1.
 */
export function createLoopbackEgress(options: LoopbackEgressOptions): LoopbackEgress {
  const fetched: string[] = [];
  const dialled: string[] = [];
  const lookup: HostLookup = async (name) => {
    const found = options.addresses[name];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return [...found];
  };
  const onwardFetch = (async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    fetched.push(url.href);
    if (!options.webHosts.includes(url.hostname)) {
      throw new Error(`the guard proxy fetched ${url.href}: the guard should have refused it`);
    }
    return fetch(`${options.httpBase}${url.pathname}${url.search}`, init);
  }) as typeof globalThis.fetch;
  const dial: DialTunnel = ({ host, port, lookup: guardedLookup }) => {
    dialled.push(`${host}:${port}`);
    if (isIP(host)) throw new Error(`the guard proxy dialled ${host}: the guard should have refused it`);
    return connect({ host, port: options.tunnelPort, lookup: onLoopback(guardedLookup) });
  };
  return { lookup, fetch: onwardFetch, dial, fetched, dialled };
}

/** The guard's connect-time lookup decides (its refusal fails the connection); what it allows becomes 127.0.0.1. */
function onLoopback(guardedLookup: ConnectLookup): ConnectLookup {
  return (hostname, options, callback) =>
    guardedLookup(hostname, options, (error) => {
      if (error) return callback(error, '');
      if (options.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
      callback(null, '127.0.0.1', 4);
    });
}

import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { isIPv6 } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { BlockedUrlError } from '../../errors/index.js';
import { describeResolvedAddresses, type HostLookup, lookupAllAddresses } from './network-guard.js';

export interface GuardedFetchOptions {
  allowPrivateNetwork: boolean;
  /** Resolver used at connection time; tests inject one. Defaults to the system resolver. */
  lookup?: HostLookup;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** The `lookup` that net.connect / tls.connect call to turn the host name into the address dialled. */
export type ConnectLookup = (
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: LookupCallback,
) => void;

/**
 * A fetch whose every connection is judged by the address it actually dials: the name is resolved
 * by the socket's own lookup, and the connection is refused when any address is not public. A check
 * made before fetching cannot do this alone, since DNS may answer differently the second time
 * (DNS rebinding). IP literals never reach a lookup; assertUrlAllowed judges them before each hop.
 * The agent (its connection pool) is made on the first request, never at import.
 */
export function createGuardedFetch(options: GuardedFetchOptions): typeof globalThis.fetch {
  let agent: Agent | undefined;
  const guardedFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    agent ??= new Agent({ connect: { lookup: createGuardedLookup(options) } });
    // undici's fetch is the one Node bundles (same version); only its type declarations differ.
    return undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
    }) as unknown as Promise<Response>;
  };
  return guardedFetch as typeof globalThis.fetch;
}

/** Resolves like dns.lookup, then refuses (BlockedUrlError) a name with any non-public address. */
export function createGuardedLookup(options: GuardedFetchOptions): ConnectLookup {
  const resolve = options.lookup ?? lookupAllAddresses;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const reason = options.allowPrivateNetwork
          ? undefined
          : describeResolvedAddresses(hostname, addresses);
        if (reason) {
          callback(
            new BlockedUrlError(
              `refusing to connect to ${hostname}: ${reason} (use --allow-private-network to allow)`,
              { url: hostname },
            ) as unknown as NodeJS.ErrnoException,
            '',
          );
          return;
        }
        const found = addresses
          .map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }))
          .filter((entry) => !lookupOptions.family || entry.family === lookupOptions.family);
        if (found.length === 0) {
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
          return;
        }
        if (lookupOptions.all) callback(null, found);
        else callback(null, found[0]!.address, found[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

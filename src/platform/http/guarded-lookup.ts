import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { isIPv6 } from 'node:net';
import { BlockedUrlError } from '../../core/errors/index.js';
import { describeResolvedAddresses, type HostLookup, lookupAllAddresses } from './network-guard.js';

export interface GuardedLookupOptions {
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
 * The `lookup` of the connections a guarded fetch dials (createOutboundFetch's `guard`): the name
 * is resolved by the socket's own lookup, and the connection is refused when any address is not
 * public. A check made before fetching cannot do this alone, since DNS may answer differently the
 * second time (DNS rebinding). IP literals never reach a lookup; assertUrlAllowed judges them
 * before each hop. Resolves like dns.lookup, then refuses (BlockedUrlError) a name with any
 * non-public address.
 */
export function createGuardedLookup(options: GuardedLookupOptions): ConnectLookup {
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

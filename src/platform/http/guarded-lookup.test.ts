import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { BlockedUrlError } from '../../core/errors/index.js';
import { createGuardedLookup } from './guarded-lookup.js';

function lookupOnce(
  addresses: string[],
  options: { all?: boolean; family?: number; allowPrivateNetwork?: boolean } = {},
): Promise<{ error: unknown; address: string | LookupAddress[]; family?: number }> {
  const lookup = createGuardedLookup({
    allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    lookup: async () => addresses,
  });
  return new Promise((resolve) => {
    lookup(
      'name.test',
      { all: options.all ?? false, family: options.family } as never,
      (error, address, family) => resolve({ error, address, family }),
    );
  });
}

describe('createGuardedLookup', () => {
  it.each([
    ['127.0.0.1', /loopback/],
    ['10.1.2.3', /private/],
    ['192.168.0.10', /private/],
    ['172.16.5.4', /private/],
    ['169.254.169.254', /metadata/],
    ['169.254.10.10', /link-local/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['224.0.0.1', /multicast/],
    ['0.0.0.0', /unspecified/],
    ['::1', /loopback/],
    ['fe80::1', /link-local/],
    ['fd12:3456::1', /unique-local/],
    ['ff02::1', /multicast/],
    ['::ffff:10.0.0.1', /private .*10\.0\.0\.1 inside/],
    ['::ffff:127.0.0.1', /loopback/],
  ])('refuses a name that resolves to %s', async (address, reason) => {
    const { error } = await lookupOnce([address]);
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect((error as Error).message).toMatch(reason);
    expect((error as Error).message).toContain('--allow-private-network');
  });

  it('refuses a name when only one of its addresses is private, since the socket may pick it', async () => {
    const { error } = await lookupOnce(['93.184.216.34', '2606:2800:220:1::1', '10.0.0.7']);
    expect((error as Error).message).toContain('10.0.0.7');
  });

  it('answers like dns.lookup for public addresses: one address, or all of them', async () => {
    expect(await lookupOnce(['93.184.216.34', '2606:2800:220:1::1'])).toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
    const all = await lookupOnce(['93.184.216.34', '2606:2800:220:1::1'], { all: true });
    expect(all.address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    const ipv6Only = await lookupOnce(['93.184.216.34', '2606:2800:220:1::1'], { family: 6 });
    expect(ipv6Only).toMatchObject({ address: '2606:2800:220:1::1', family: 6 });
  });

  it('reports a name with no usable address as not found', async () => {
    const { error } = await lookupOnce([]);
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
  });

  it('lets private addresses through when private networks are allowed', async () => {
    expect(await lookupOnce(['127.0.0.1'], { allowPrivateNetwork: true })).toMatchObject({
      error: null,
      address: '127.0.0.1',
    });
  });
});

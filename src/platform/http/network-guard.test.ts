import { describe, expect, it } from 'vitest';
import { BlockedUrlError } from '../../core/errors/index.js';
import {
  assertUrlAllowed,
  describeNonPublicAddress,
  type HostLookup,
  isPrivateHostLiteral,
  isPublicAddress,
} from './network-guard.js';

const nonPublic: Array<[string, RegExp]> = [
  ['127.0.0.1', /loopback/],
  ['127.255.255.254', /loopback/],
  ['10.1.2.3', /private/],
  ['172.16.0.1', /private/],
  ['172.31.255.255', /private/],
  ['192.168.1.1', /private/],
  ['169.254.1.1', /link-local/],
  ['169.254.169.254', /metadata/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.127.255.255', /carrier-grade NAT/],
  ['224.0.0.1', /multicast/],
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['255.255.255.255', /broadcast/],
  ['240.0.0.1', /reserved/],
  ['192.0.2.1', /reserved/],
  ['198.18.0.1', /reserved/],
  ['::1', /loopback/],
  ['::', /unspecified/],
  ['fc00::1', /unique-local/],
  ['fd12:3456::1', /unique-local/],
  ['fd00:ec2::254', /metadata/],
  ['fe80::1', /link-local/],
  ['ff02::1', /multicast/],
  ['fec0::1', /reserved/],
  ['::7f00:1', /reserved/],
  ['2001:db8::1', /reserved/],
  ['::ffff:127.0.0.1', /loopback address \(127\.0\.0\.1 inside/],
  ['::ffff:a00:1', /private \w+ address \(10\.0\.0\.1 inside/],
  ['::ffff:169.254.169.254', /metadata/],
  ['64:ff9b::7f00:1', /loopback/],
  ['64:ff9b::c0a8:101', /private/],
  ['64:ff9b:1::1', /NAT64/],
  ['2002:7f00:1::1', /loopback/],
  ['2002:c0a8:101::1', /private/],
  // Teredo: client 127.0.0.1 is stored inverted (0x80ff:0xfffe).
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', /loopback/],
  ['not-an-ip', /not an IP address/],
];

const publicAddresses = [
  '93.184.216.34',
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '100.128.0.1',
  '169.253.1.1',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
  // Teredo with public server 65.54.227.120 and public client 8.8.8.8 (stored inverted).
  '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
];

describe('isPublicAddress', () => {
  it.each(nonPublic)('refuses %s', (ip, reason) => {
    expect(isPublicAddress(ip)).toBe(false);
    expect(describeNonPublicAddress(ip)).toMatch(reason);
  });

  it.each(publicAddresses)('accepts %s', (ip) => {
    expect(describeNonPublicAddress(ip)).toBeUndefined();
    expect(isPublicAddress(ip)).toBe(true);
  });
});

const noDns: HostLookup = async (hostname) => {
  throw new Error(`unexpected DNS lookup of ${hostname}`);
};

function lookupTable(table: Record<string, string[]>): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
  return Object.assign(lookup, { calls });
}

async function blockedError(url: string, lookup: HostLookup = noDns): Promise<BlockedUrlError> {
  const error = await assertUrlAllowed(url, { allowPrivateNetwork: false, lookup }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BlockedUrlError);
  return error as BlockedUrlError;
}

describe('assertUrlAllowed', () => {
  it('explains a refused loopback literal and names the flag that allows it', async () => {
    const error = await blockedError('http://127.0.0.1/');
    expect(error.message).toBe(
      'refusing to fetch http://127.0.0.1/: loopback address (use --allow-private-network to allow)',
    );
    expect(error.url).toBe('http://127.0.0.1/');
    expect(error.code).toBe('url_blocked');
  });

  it.each([
    ['http://2130706433/', /loopback/],
    ['http://0177.0.0.1/', /loopback/],
    ['http://0x7f.1/', /loopback/],
    ['http://127.1:8080/x', /loopback/],
    ['http://[::1]/', /loopback/],
    ['http://[::ffff:127.0.0.1]/', /loopback/],
    ['http://[fd00:ec2::254]/latest', /metadata/],
    ['http://169.254.169.254/latest/meta-data/', /metadata/],
    ['https://10.0.0.1/', /private/],
    ['http://localhost:3000/', /localhost/],
    ['http://LOCALHOST./', /localhost/],
    ['http://admin.localhost/', /localhost/],
  ])('refuses %s without a DNS lookup', async (url, reason) => {
    expect((await blockedError(url)).message).toMatch(reason);
  });

  it.each(['ftp://example.com/file', 'file:///etc/passwd', 'data:text/plain,hi', 'javascript:alert(1)'])(
    'refuses the scheme of %s even when private networks are allowed',
    async (url) => {
      const error = await assertUrlAllowed(url, { allowPrivateNetwork: true }).catch((caught) => caught);
      expect(error).toBeInstanceOf(BlockedUrlError);
      expect(error.message).toMatch(/only http and https/);
    },
  );

  it('refuses a string that is not a URL', async () => {
    expect((await blockedError('not a url')).message).toMatch(/not a valid URL/);
  });

  it('resolves a name and refuses it when any of its addresses is private', async () => {
    const lookup = lookupTable({ 'mixed.example': ['93.184.216.34', '10.0.0.7'] });
    const error = await blockedError('https://mixed.example/page?token=secret', lookup);
    expect(error.message).toBe(
      'refusing to fetch https://mixed.example/page: mixed.example resolves to 10.0.0.7, ' +
        'a private network address (use --allow-private-network to allow)',
    );
    expect(lookup.calls).toEqual(['mixed.example']);
  });

  it('refuses a public-looking name that resolves to loopback', async () => {
    const lookup = lookupTable({ 'rebind.example': ['127.0.0.1'] });
    expect((await blockedError('http://rebind.example/', lookup)).message).toMatch(
      /rebind\.example resolves to 127\.0\.0\.1, a loopback address/,
    );
  });

  it('accepts a name whose addresses are all public', async () => {
    const lookup = lookupTable({ 'example.com': ['93.184.216.34', '2606:2800:220:1::248'] });
    await expect(
      assertUrlAllowed('https://example.com/', { allowPrivateNetwork: false, lookup }),
    ).resolves.toBeUndefined();
    expect(lookup.calls).toEqual(['example.com']);
  });

  it('accepts a public IP literal without a DNS lookup', async () => {
    await expect(
      assertUrlAllowed('http://93.184.216.34/', { allowPrivateNetwork: false, lookup: noDns }),
    ).resolves.toBeUndefined();
  });

  it('lets a DNS failure through as it is, for the caller to report as unreachable', async () => {
    const lookup = lookupTable({});
    await expect(
      assertUrlAllowed('http://missing.example/', { allowPrivateNetwork: false, lookup }),
    ).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('allows private hosts, without DNS, when private networks are allowed', async () => {
    for (const url of ['http://127.0.0.1:8080/', 'http://localhost/', 'http://intranet.example/']) {
      await expect(
        assertUrlAllowed(url, { allowPrivateNetwork: true, lookup: noDns }),
      ).resolves.toBeUndefined();
    }
  });
});

describe('isPrivateHostLiteral', () => {
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://[::1]:8080/',
    'http://192.168.0.10/admin',
    'http://169.254.169.254/',
    'http://localhost/',
    'https://app.localhost/',
  ])('is true for %s', (url) => {
    expect(isPrivateHostLiteral(url)).toBe(true);
  });

  it.each(['https://example.com/', 'http://93.184.216.34/', 'http://[2606:4700::1]/', 'not a url'])(
    'is false for %s',
    (url) => {
      expect(isPrivateHostLiteral(url)).toBe(false);
    },
  );
});

import { afterEach, describe, expect, it } from 'vitest';
import { startFakeWeb } from '../../../../test/helpers/fake-web-server.js';
import { BlockedUrlError } from '../../../core/errors/index.js';
import type { HostLookup } from '../../../platform/http/network-guard.js';
import { createOutboundFetch } from '../../../platform/http/outbound-fetch.js';
import type { FakeHttpServer } from '../../../testing/fake-http-server.js';
import { createBuiltinReader } from './builtin-reader.js';

const secretPage =
  '<html><body><article><p>Internal credentials page that must never be read.</p></article></body></html>';

let web: FakeHttpServer | undefined;

afterEach(async () => {
  await web?.close();
  web = undefined;
});

/** The fake web on 127.0.0.1 plays the private service an attacker would like the reader to reach. */
async function privateService(): Promise<{ site: FakeHttpServer; port: string }> {
  web = await startFakeWeb({ pages: { '/': { html: secretPage }, '/admin': { html: secretPage } } });
  return { site: web, port: new URL(web.url).port };
}

async function readError(read: Promise<unknown>): Promise<unknown> {
  return read.then(
    () => undefined,
    (caught: unknown) => caught,
  );
}

describe('the built-in reader refuses private addresses (no custom fetch: the real guarded path)', () => {
  it.each([
    ['loopback literal', (port: string) => `http://127.0.0.1:${port}/`],
    ['short form', (port: string) => `http://127.1:${port}/`],
    ['decimal spelling', (port: string) => `http://2130706433:${port}/`],
    ['octal spelling', (port: string) => `http://0177.0.0.1:${port}/`],
    ['hex spelling', (port: string) => `http://0x7f.0.0.1:${port}/`],
    ['IPv4-mapped IPv6', (port: string) => `http://[::ffff:127.0.0.1]:${port}/`],
    ['IPv4-mapped IPv6 in hex', (port: string) => `http://[::ffff:7f00:1]:${port}/`],
    ['localhost', (port: string) => `http://localhost:${port}/`],
  ])('%s', async (_name, address) => {
    const { site, port } = await privateService();
    const error = await readError(createBuiltinReader({ maxRetries: 0 }).read(address(port)));
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect(site.requests).toHaveLength(0);
  });

  it('a DNS name that resolves to a private address', async () => {
    const { site, port } = await privateService();
    const reader = createBuiltinReader({ maxRetries: 0, lookup: async () => ['127.0.0.1'] });
    const error = await readError(reader.read(`http://intranet.example:${port}/`));
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect((error as Error).message).toContain('intranet.example resolves to 127.0.0.1, a loopback address');
    expect(site.requests).toHaveLength(0);
  });

  it('DNS rebinding: public when checked, loopback when the connection resolves the name again', async () => {
    const { site, port } = await privateService();
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    const lookup: HostLookup = async () => answers.shift() ?? ['127.0.0.1'];
    const error = await readError(
      createBuiltinReader({ maxRetries: 0, lookup }).read(`http://rebind.example:${port}/`),
    );
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect((error as Error).message).toMatch(/refusing to connect to rebind\.example: .*loopback/);
    expect(answers).toHaveLength(0);
    expect(site.requests).toHaveLength(0);
  });

  it('a redirect from a public-looking site to 127.0.0.1, and to a name that rebinds to it', async () => {
    const { site, port } = await privateService();
    let checks = 0;
    // Names look public to the check before each hop, and private when the socket resolves them.
    const lookup: HostLookup = async () => (checks++ % 2 === 0 ? ['93.184.216.34'] : ['127.0.0.1']);
    const guarded = createOutboundFetch({ guard: { allowPrivateNetwork: false, lookup } });
    const publicSite = (target: string): typeof fetch => {
      return async (input, init) =>
        String(input).startsWith('https://public.example/')
          ? new Response(null, { status: 302, headers: { location: target } })
          : guarded(input, init);
    };
    for (const target of [`http://127.0.0.1:${port}/admin`, `http://internal.example:${port}/admin`]) {
      const reader = createBuiltinReader({ maxRetries: 0, lookup, fetch: publicSite(target) });
      const error = await readError(reader.read('https://public.example/start'));
      expect(error).toBeInstanceOf(BlockedUrlError);
    }
    expect(site.requests).toHaveLength(0);
  });

  it('reads a private service when private networks are allowed, dialling the looked-up address', async () => {
    const { site, port } = await privateService();
    const reader = createBuiltinReader({
      maxRetries: 0,
      allowPrivateNetwork: true,
      lookup: async () => ['127.0.0.1'],
    });
    const page = await reader.read(`http://intranet.example:${port}/`);
    expect(page.text).toContain('Internal credentials page');
    expect(site.requests[0]?.headers.host).toBe(`intranet.example:${port}`);
  });
});

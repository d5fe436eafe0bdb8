import { afterEach, describe, expect, it } from 'vitest';
import { type RecordingProxy, startRecordingProxy } from '../../../../test/helpers/recording-proxy.js';
import type { ProxySettings } from '../../../config/proxy-settings.js';
import { BlockedUrlError } from '../../../core/errors/index.js';
import type { HostLookup } from '../../../platform/http/network-guard.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../../testing/fake-http-server.js';
import { createBuiltinReader } from './builtin-reader.js';

let site: FakeHttpServer | undefined;
let proxy: RecordingProxy | undefined;

afterEach(async () => {
  await site?.close();
  await proxy?.close();
  site = undefined;
  proxy = undefined;
});

const article =
  '<html><head><title>Tides</title></head><body><article><p>High tide at Brest is at 12:04 today.</p></article></body></html>';

/** A public site the proxy alone can resolve (tides.example.com), whose /moved redirects to `target`. */
async function siteBehindProxy(target: string): Promise<{ proxy: RecordingProxy; settings: ProxySettings }> {
  site = await startFakeHttpServer((request, response) => {
    if (request.path === '/moved') {
      response.writeHead(302, { location: target }).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end(article);
  });
  proxy = await startRecordingProxy({ hosts: { 'tides.example.com': Number(new URL(site.url).port) } });
  const choice = { url: proxy.url, setBy: 'HTTP_PROXY' };
  return { proxy, settings: { http: choice, https: choice, noProxy: [] } };
}

/** Behind a proxy the local DNS knows no public name; the test's own names map where it says. */
function lookupOf(names: Record<string, string>): HostLookup {
  return async (hostname) => {
    const address = names[hostname];
    if (address) return [address];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
}

describe('the built-in reader behind a proxy', () => {
  it('reads a page through the proxy, which resolves the name the local DNS does not know', async () => {
    const { proxy: recording, settings } = await siteBehindProxy('http://tides.example.com/');
    const reader = createBuiltinReader({ maxRetries: 0, proxy: settings, lookup: lookupOf({}) });
    const page = await reader.read('http://tides.example.com/brest');
    expect(page.text).toContain('High tide at Brest is at 12:04');
    expect(recording.requests).toEqual([{ method: 'GET', target: 'http://tides.example.com/brest' }]);
  });

  it('judges every redirect hop before the proxy gets it: a hop to a metadata name is refused', async () => {
    const { proxy: recording, settings } = await siteBehindProxy('http://instance-data.example.com/latest/');
    const lookup = lookupOf({ 'instance-data.example.com': '169.254.169.254' });
    const reader = createBuiltinReader({ maxRetries: 0, proxy: settings, lookup });
    const error = await reader.read('http://tides.example.com/moved').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect((error as Error).message).toContain('resolves to 169.254.169.254, a cloud metadata address');
    // The first hop went through the proxy; the refused one never did.
    expect(recording.requests.map((request) => request.target)).toEqual(['http://tides.example.com/moved']);
  });

  it('refuses a redirect to a private literal and to an internal name, the proxy asked for neither', async () => {
    for (const target of ['http://10.0.0.5/admin', 'http://metadata.google.internal/computeMetadata/v1/']) {
      const { proxy: recording, settings } = await siteBehindProxy(target);
      const reader = createBuiltinReader({ maxRetries: 0, proxy: settings, lookup: lookupOf({}) });
      const error = await reader.read('http://tides.example.com/moved').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BlockedUrlError);
      expect(recording.requests).toHaveLength(1);
      await site?.close();
      await recording.close();
    }
  });
});

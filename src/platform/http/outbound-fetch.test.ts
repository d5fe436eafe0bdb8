import { afterEach, describe, expect, it } from 'vitest';
import { startFakeWeb } from '../../../test/helpers/fake-web-server.js';
import {
  type RecordingProxy,
  type RecordingProxyOptions,
  startRecordingProxy,
} from '../../../test/helpers/recording-proxy.js';
import type { ProxySettings } from '../../config/proxy-settings.js';
import { AuthenticationError, BlockedUrlError, ProviderError } from '../../core/errors/index.js';
import { closedPortUrl, type FakeHttpServer } from '../../testing/fake-http-server.js';
import { createOutboundFetch } from './outbound-fetch.js';

let web: FakeHttpServer | undefined;
let proxy: RecordingProxy | undefined;

afterEach(async () => {
  await web?.close();
  await proxy?.close();
  web = undefined;
  proxy = undefined;
});

async function startWeb(): Promise<FakeHttpServer> {
  web = await startFakeWeb({ pages: { '/': { html: '<p>hello</p>' }, '/page': { html: '<p>page</p>' } } });
  return web;
}

async function startProxy(options: RecordingProxyOptions = {}): Promise<RecordingProxy> {
  proxy = await startRecordingProxy(options);
  return proxy;
}

/** Every scheme through `url`; NO_PROXY empty, so loopback targets go through it too. */
function through(url: string, noProxy: string[] = []): ProxySettings {
  return {
    http: { url, setBy: 'HTTP_PROXY' },
    https: { url, setBy: 'HTTPS_PROXY' },
    noProxy,
    noProxySetBy: 'NO_PROXY',
  };
}

function withCredentials(url: string, username: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = username;
  parsed.password = password;
  return parsed.href;
}

async function failure(request: Promise<unknown>): Promise<Error> {
  return request.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (error: unknown) => error as Error,
  );
}

describe('createOutboundFetch through a proxy', () => {
  it('forwards plain http as an absolute-form request, with the credentials of the proxy URL', async () => {
    const site = await startWeb();
    const recording = await startProxy({ credentials: { username: 'alice', password: 'p@ss word' } });
    const outbound = createOutboundFetch({
      proxy: through(withCredentials(recording.url, 'alice', 'p@ss word')),
    });
    const response = await outbound(`${site.url}/page?q=1`, { headers: { 'x-test': 'yes' } });
    expect(await response.text()).toBe('<p>page</p>');
    expect(recording.requests).toEqual([
      {
        method: 'GET',
        target: `${site.url}/page?q=1`,
        proxyAuthorization: `Basic ${Buffer.from('alice:p@ss word').toString('base64')}`,
      },
    ]);
    expect(site.requests[0]).toMatchObject({ path: '/page', headers: { 'x-test': 'yes' } });
    // The proxy's credentials are for the proxy: the site never sees them.
    expect(site.requests[0]?.headers['proxy-authorization']).toBeUndefined();
  });

  it('sends a POST body and a Request object through the proxy', async () => {
    const site = await startWeb();
    const recording = await startProxy();
    const outbound = createOutboundFetch({ proxy: through(recording.url) });
    await outbound(`${site.url}/`, { method: 'POST', body: '{"a":1}' });
    await outbound(new Request(`${site.url}/page`, { method: 'POST', body: 'from a Request' }));
    expect(recording.requests.map((request) => request.method)).toEqual(['POST', 'POST']);
    expect(site.requests.map((request) => request.body)).toEqual(['{"a":1}', 'from a Request']);
  });

  it('goes direct to a host NO_PROXY names; the proxy sees nothing', async () => {
    const site = await startWeb();
    const recording = await startProxy();
    const outbound = createOutboundFetch({ proxy: through(recording.url, ['127.0.0.1']) });
    expect((await outbound(`${site.url}/`)).status).toBe(200);
    expect(recording.requests).toHaveLength(0);
    expect(site.requests).toHaveLength(1);
  });

  it('opens a CONNECT tunnel for https', async () => {
    const recording = await startProxy({ refuseConnectWith: 403 });
    const outbound = createOutboundFetch({ proxy: through(recording.url) });
    await failure(outbound('https://localhost:4443/v1/models'));
    expect(recording.requests).toEqual([{ method: 'CONNECT', target: 'localhost:4443' }]);
  });
});

describe('a proxy failure names the proxy and what set it, never its credentials', () => {
  it('407 on a forwarded request', async () => {
    const site = await startWeb();
    const recording = await startProxy({ credentials: { username: 'alice', password: 'right' } });
    const outbound = createOutboundFetch({
      proxy: through(withCredentials(recording.url, 'alice', 'wrong-password')),
    });
    const error = await failure(outbound(`${site.url}/`));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ code: 'proxy_auth_required', statusCode: 407, isRetryable: false });
    expect(error.message).toBe(
      `the proxy http://***:***@127.0.0.1:${new URL(recording.url).port}/ (set by HTTP_PROXY) asks for ` +
        `credentials (HTTP 407) to reach ${site.url}/: it rejected the user and password in the proxy URL; ` +
        'check them (characters such as @ : / in a password are written %40 %3A %2F)',
    );
    expect(site.requests).toHaveLength(0);
  });

  it('407 to a CONNECT', async () => {
    const recording = await startProxy({ credentials: { username: 'alice', password: 'right' } });
    const outbound = createOutboundFetch({ proxy: through(recording.url) });
    const error = await failure(outbound('https://localhost:4443/'));
    expect(error).toMatchObject({ code: 'proxy_auth_required', statusCode: 407 });
    expect(error.message).toContain('(set by HTTPS_PROXY) asks for credentials (HTTP 407)');
    // No credentials in the URL: the advice is where to put them.
    expect(error.message).toContain('put them in the proxy URL, http://user:password@host:port');
  });

  it.each([
    [403, false],
    [502, true],
  ])('a CONNECT refused with %i', async (status, retryable) => {
    const recording = await startProxy({ refuseConnectWith: status });
    const outbound = createOutboundFetch({ proxy: through(recording.url) });
    const error = await failure(outbound('https://api.example.test/v1/chat'));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'proxy_refused', statusCode: status, isRetryable: retryable });
    expect(error.message).toMatch(
      new RegExp(
        `^the proxy http://127\\.0\\.0\\.1:\\d+/ \\(set by HTTPS_PROXY\\) refused to connect to api\\.example\\.test:443 \\(HTTP ${status} to CONNECT\\)`,
      ),
    );
  });

  it('a proxy that is down', async () => {
    const down = withCredentials(await closedPortUrl(), 'alice', 'secret-pw');
    const outbound = createOutboundFetch({ proxy: through(down) });
    for (const url of ['http://api.example.test/x', 'https://api.example.test/x']) {
      const error = await failure(outbound(url));
      expect(error).toMatchObject({ code: 'proxy_unreachable', isRetryable: true });
      expect(error.message).toMatch(
        /^cannot reach the proxy http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:\d+\/ \(set by/,
      );
      expect(error.message).toContain('connection refused (ECONNREFUSED)');
      expect(error.message).not.toContain('secret-pw');
    }
  });

  it('a cancelled request stays a cancellation', async () => {
    const recording = await startProxy();
    const outbound = createOutboundFetch({ proxy: through(recording.url) });
    const controller = new AbortController();
    controller.abort();
    const error = await failure(outbound('http://api.example.test/', { signal: controller.signal }));
    expect(error.name).toBe('AbortError');
  });
});

describe('the network guard decides before the proxy is asked', () => {
  const metadata = async () => ['169.254.169.254'];
  const notFound = async (): Promise<string[]> => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
  };

  it('refuses private literals and names that resolve to a metadata address; the proxy sees nothing', async () => {
    const recording = await startProxy();
    const outbound = createOutboundFetch({
      proxy: through(recording.url),
      guard: { allowPrivateNetwork: false, lookup: metadata },
    });
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://127.0.0.1:8080/',
      'http://localhost/',
      'https://metadata.example.com/computeMetadata/v1/',
    ]) {
      const error = await failure(outbound(url));
      expect(error).toBeInstanceOf(BlockedUrlError);
    }
    const named = await failure(outbound('https://metadata.example.com/'));
    expect(named.message).toContain(
      'metadata.example.com resolves to 169.254.169.254, a cloud metadata address',
    );
    expect(recording.requests).toHaveLength(0);
  });

  it('lets a name the local DNS does not know go to the proxy, which resolves it', async () => {
    const site = await startWeb();
    const recording = await startProxy({ hosts: { 'docs.example.com': Number(new URL(site.url).port) } });
    const outbound = createOutboundFetch({
      proxy: through(recording.url),
      guard: { allowPrivateNetwork: false, lookup: notFound },
    });
    const response = await outbound('http://docs.example.com/page');
    expect(await response.text()).toBe('<p>page</p>');
    expect(recording.requests).toEqual([{ method: 'GET', target: 'http://docs.example.com/page' }]);
  });

  it('refuses an internal-looking name the local DNS does not know, rather than let the proxy resolve it', async () => {
    const recording = await startProxy();
    const outbound = createOutboundFetch({
      proxy: through(recording.url),
      guard: { allowPrivateNetwork: false, lookup: notFound },
    });
    for (const url of ['http://metadata.google.internal/', 'http://intranet/', 'https://wiki.corp/']) {
      const error = await failure(outbound(url));
      expect(error).toBeInstanceOf(BlockedUrlError);
      expect(error.message).toContain('looks like an internal name the proxy would resolve');
    }
    expect(recording.requests).toHaveLength(0);
  });

  it('with private networks allowed, loopback goes through the proxy', async () => {
    const site = await startWeb();
    const recording = await startProxy();
    const outbound = createOutboundFetch({
      proxy: through(recording.url),
      guard: { allowPrivateNetwork: true },
    });
    expect((await outbound(`${site.url}/`)).status).toBe(200);
    expect(recording.requests).toHaveLength(1);
  });
});

describe('createOutboundFetch direct, with the guard (no proxy)', () => {
  it('dials the address its lookup gives and keeps the name in the Host header', async () => {
    const site = await startWeb();
    const port = new URL(site.url).port;
    const outbound = createOutboundFetch({
      guard: { allowPrivateNetwork: true, lookup: async () => ['127.0.0.1'] },
    });
    const response = await outbound(`http://intranet.test:${port}/`);
    expect(await response.text()).toBe('<p>hello</p>');
    expect(site.requests[0]?.headers.host).toBe(`intranet.test:${port}`);
  });

  it('refuses at connection time a name whose address is private; nothing reaches the server', async () => {
    const site = await startWeb();
    const port = new URL(site.url).port;
    const outbound = createOutboundFetch({
      guard: { allowPrivateNetwork: false, lookup: async () => ['127.0.0.1'] },
    });
    const error = await failure(outbound(`http://intranet.test:${port}/`));
    expect(error.cause).toBeInstanceOf(BlockedUrlError);
    expect(site.requests).toHaveLength(0);
  });
});

import { request } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLoopbackEgress, type LoopbackEgress } from '../../../../test/helpers/loopback-egress.js';
import { type RecordingProxy, startRecordingProxy } from '../../../../test/helpers/recording-proxy.js';
import { waitFor } from '../../../../test/helpers/server-harness.js';
import {
  type FakeHttpServer,
  listenOnLoopback,
  startFakeHttpServer,
} from '../../../testing/fake-http-server.js';
import { type GuardProxy, type GuardProxyOptions, startGuardProxy } from './guard-proxy.js';

// Every packet stays on 127.0.0.1. Names are resolved by a test resolver (public-looking addresses
// for the "internet", private ones for what must be refused); the proxy's onward fetch and dial are
// hooks that carry allowed requests to servers on loopback and record every call, so a test can
// show that a refused request never reached them (createLoopbackEgress).
const addresses: Record<string, string[]> = {
  'app.test': ['93.184.216.34'],
  'intranet.test': ['10.0.0.7'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': ['93.184.216.35', '192.168.1.9'],
};

let web: FakeHttpServer;
let tlsSink: Server;
let tlsSinkPort: number;
const sinkConnections: Socket[] = [];
let egress: LoopbackEgress;
let proxy: GuardProxy | undefined;

beforeAll(async () => {
  web = await startFakeHttpServer((incoming, response) => {
    if (incoming.path === '/gzip') {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      return void response.end(gzipSync('unzipped text'));
    }
    if (incoming.path === '/redirect') {
      response.writeHead(302, { location: 'http://intranet.test/secret' });
      return void response.end();
    }
    if (incoming.path === '/big') return void response.end('x'.repeat(50_000));
    response.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] });
    response.end(`page ${incoming.path}; accept-encoding ${incoming.headers['accept-encoding']}`);
  });
  // Where allowed tunnels are dialled: records the connection and the first bytes.
  tlsSink = createServer((socket) => {
    sinkConnections.push(socket);
    socket.on('error', () => undefined);
  });
  tlsSinkPort = await listenOnLoopback(tlsSink);
});

beforeEach(() => {
  egress = createLoopbackEgress({
    addresses,
    webHosts: ['app.test'],
    httpBase: web.url,
    tunnelPort: tlsSinkPort,
  });
});

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  for (const socket of sinkConnections.splice(0)) socket.destroy();
});

afterAll(async () => {
  await web.close();
  await new Promise<void>((resolve) => tlsSink.close(() => resolve()));
});

async function start(options: Partial<GuardProxyOptions> = {}): Promise<GuardProxy> {
  proxy = await startGuardProxy({
    allowPrivateNetwork: false,
    lookup: egress.lookup,
    maxBytes: 1_000_000,
    fetch: egress.fetch,
    dial: egress.dial,
    ...options,
  });
  return proxy;
}

/** A plain-http request as a browser sends it to its proxy (absolute form). */
function viaProxy(
  guard: GuardProxy,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(guard.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path: target, headers }, (incoming) => {
      let body = '';
      incoming.on('data', (chunk) => (body += chunk));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** A CONNECT; resolves with the proxy's status and, when it opened the tunnel, the socket. */
function tunnel(guard: GuardProxy, target: string): Promise<{ status: number; socket: Socket }> {
  const { port } = new URL(guard.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, method: 'CONNECT', path: target });
    outgoing.on('connect', (incoming, socket) => resolve({ status: incoming.statusCode ?? 0, socket }));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

describe('guard proxy: plain http', () => {
  it('forwards an allowed request, decoding the body and offering only encodings fetch decodes', async () => {
    const guard = await start();
    const page = await viaProxy(guard, 'http://app.test/article', { 'accept-encoding': 'gzip, br, zstd' });
    expect(page.status).toBe(200);
    expect(page.body).toBe('page /article; accept-encoding gzip, deflate, br');
    expect(page.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    const zipped = await viaProxy(guard, 'http://app.test/gzip');
    expect(zipped.body).toBe('unzipped text');
    expect(zipped.headers['content-encoding']).toBeUndefined();
    expect(guard.problems).toEqual([]);
  });

  it('refuses private, metadata and mixed names and private literals before fetching', async () => {
    const guard = await start();
    for (const target of [
      'http://intranet.test/secret',
      'http://metadata.test/latest/meta-data/',
      'http://mixed.test/',
      'http://10.1.2.3/',
      'http://127.0.0.1:9/',
      'http://localhost/',
    ]) {
      const answer = await viaProxy(guard, target);
      expect(answer.status, target).toBe(403);
    }
    expect(egress.fetched).toEqual([]);
    expect(guard.problems.map((problem) => [problem.kind, problem.error.message])).toEqual([
      ['refused', expect.stringContaining('intranet.test resolves to 10.0.0.7, a private network address')],
      ['refused', expect.stringContaining('cloud metadata address')],
      ['refused', expect.stringContaining('mixed.test resolves to 192.168.1.9')],
      ['refused', expect.stringContaining('private network address')],
      ['refused', expect.stringContaining('loopback address')],
      ['refused', expect.stringContaining('localhost')],
    ]);
    expect(guard.problemFor('http://intranet.test/other')?.error.name).toBe('BlockedUrlError');
  });

  it('passes a redirect on without following it; the next hop is judged when the browser asks', async () => {
    const guard = await start();
    const hop = await viaProxy(guard, 'http://app.test/redirect');
    expect([hop.status, hop.headers.location]).toEqual([302, 'http://intranet.test/secret']);
    expect((await viaProxy(guard, 'http://intranet.test/secret')).status).toBe(403);
    expect(egress.fetched).toEqual(['http://app.test/redirect']);
  });

  it('refuses other schemes (file:, ftp:) and WebSocket upgrades', async () => {
    const guard = await start();
    expect((await viaProxy(guard, 'file:///etc/passwd')).status).toBe(403);
    expect((await viaProxy(guard, 'ftp://app.test/file')).status).toBe(403);
    const upgrade = await rawExchange(
      guard,
      'GET http://app.test/ws HTTP/1.1\r\nHost: app.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(upgrade).toMatch(/^HTTP\/1.1 403/);
    expect(egress.fetched).toEqual([]);
    expect(guard.problems.map((problem) => problem.error.message)).toEqual([
      expect.stringContaining('file:'),
      expect.stringContaining('ftp:'),
      expect.stringContaining('WebSocket'),
    ]);
  });

  it('cuts the answers once the page has used its byte budget', async () => {
    const guard = await start({ maxBytes: 20_000 });
    await expect(viaProxy(guard, 'http://app.test/big')).rejects.toThrow();
    expect(guard.problems.map((problem) => problem.error.message)).toEqual([
      "the page's requests went over 20000 bytes",
    ]);
  });
});

describe('guard proxy: CONNECT tunnels', () => {
  it('refuses a private or metadata target before the tunnel opens, dialling nothing', async () => {
    const guard = await start();
    for (const target of [
      'intranet.test:443',
      'metadata.test:443',
      '10.0.0.1:443',
      '[::1]:443',
      'localhost:443',
    ]) {
      const { status, socket } = await tunnel(guard, target);
      expect(status, target).toBe(403);
      socket.destroy();
    }
    expect(egress.dialled).toEqual([]);
    expect(guard.problems).toHaveLength(5);
    expect((await tunnel(guard, 'no-port.test')).status).toBe(400);
  });

  it('opens TLS offering HTTP/2 (a page request) to the address the guard checked', async () => {
    const guard = await start();
    const { status, socket } = await tunnel(guard, 'app.test:443');
    expect(status).toBe(200);
    const hello = clientHelloInto(socket, ['h2', 'http/1.1']);
    await waitFor(() => sinkConnections.length === 1, 10_000);
    expect(egress.dialled).toEqual(['app.test:443']);
    hello.destroy();
  });

  it('refuses WebSockets in tunnels: plain text (ws:) and TLS without HTTP/2 (wss:), before dialling', async () => {
    const guard = await start();
    const plain = await tunnel(guard, 'app.test:80');
    expect(plain.status).toBe(200);
    plain.socket.write(
      'GET /ws HTTP/1.1\r\nHost: app.test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
    );
    await closed(plain.socket);
    const secure = await tunnel(guard, 'app.test:443');
    const hello = clientHelloInto(secure.socket, ['http/1.1']);
    await closed(secure.socket);
    hello.destroy();
    expect(egress.dialled).toEqual([]);
    expect(sinkConnections).toEqual([]);
    expect(guard.problems.map((problem) => problem.error.message)).toEqual([
      expect.stringContaining('WebSocket (ws:)'),
      expect.stringContaining('secure WebSocket (wss:)'),
    ]);
  });

  it('refuses at connect a name that resolved to a public address first and a private one then', async () => {
    let answers = 0;
    const rebinding = async (name: string) =>
      name === 'rebind.test' ? [answers++ === 0 ? '93.184.216.36' : '10.9.9.9'] : egress.lookup(name);
    const guard = await start({ lookup: rebinding });
    const { status, socket } = await tunnel(guard, 'rebind.test:443');
    expect(status).toBe(200);
    const hello = clientHelloInto(socket, ['h2']);
    await closed(socket);
    hello.destroy();
    expect(sinkConnections).toEqual([]);
    expect(guard.problems.map((problem) => [problem.kind, problem.error.message])).toEqual([
      ['failed', expect.stringContaining('rebind.test resolves to 10.9.9.9')],
    ]);
  });
});

describe('guard proxy behind a corporate proxy', () => {
  let upstream: RecordingProxy;
  afterEach(() => upstream?.close());

  it('sends allowed requests through it (credentials included) and refuses private ones before it', async () => {
    upstream = await startRecordingProxy({ credentials: { username: 'alice', password: 's3cret' } });
    const proxyUrl = upstream.url.replace('http://', 'http://alice:s3cret@');
    const settings = {
      http: { url: proxyUrl, setBy: 'HTTP_PROXY' },
      https: { url: proxyUrl, setBy: 'HTTPS_PROXY' },
      noProxy: [],
    };
    const guard = await start({ proxy: settings, fetch: undefined, dial: undefined });
    expect((await viaProxy(guard, 'http://intranet.test/')).status).toBe(403);
    const { status, socket } = await tunnel(guard, 'metadata.test:443');
    expect(status).toBe(403);
    socket.destroy();
    expect(upstream.requests).toEqual([]);
    // A public name the local resolver does not know goes to the proxy, which resolves it.
    const open = await tunnel(guard, 'public.example.org:443');
    const hello = clientHelloInto(open.socket, ['h2']);
    await waitFor(() => upstream.requests.length === 1, 10_000);
    expect(upstream.requests[0]).toMatchObject({
      method: 'CONNECT',
      target: 'public.example.org:443',
      proxyAuthorization: `Basic ${Buffer.from('alice:s3cret').toString('base64')}`,
    });
    hello.destroy();
  });

  it('names the proxy when it wants other credentials', async () => {
    upstream = await startRecordingProxy({ credentials: { username: 'alice', password: 'right' } });
    const proxyUrl = upstream.url.replace('http://', 'http://alice:wrong@');
    const settings = { https: { url: proxyUrl, setBy: 'HTTPS_PROXY' }, noProxy: [] };
    const guard = await start({ proxy: settings, dial: undefined });
    const open = await tunnel(guard, 'public.example.org:443');
    const hello = clientHelloInto(open.socket, ['h2']);
    await closed(open.socket);
    hello.destroy();
    const message = guard.problemFor('https://public.example.org/')?.error.message ?? '';
    expect(message).toContain('asks for credentials (HTTP 407)');
    expect(message).toContain('(set by HTTPS_PROXY)');
    expect(message).not.toContain('wrong');
  });
});

/** Starts a TLS handshake inside an open tunnel; its ClientHello offers `protocols`. */
function clientHelloInto(socket: Socket, protocols: string[]) {
  const tls = tlsConnect({ socket, servername: 'app.test', ALPNProtocols: protocols });
  tls.on('error', () => undefined);
  return tls;
}

async function rawExchange(guard: GuardProxy, text: string): Promise<string> {
  const { port } = new URL(guard.url);
  const socket = connect(Number(port), '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk) => (answer += chunk));
  socket.write(text);
  await closed(socket);
  return answer;
}

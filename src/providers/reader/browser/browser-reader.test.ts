import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appShellPage } from '../../../../test/helpers/app-shell-page.js';
import { createLoopbackEgress, type LoopbackEgress } from '../../../../test/helpers/loopback-egress.js';
import { startRecordingProxy } from '../../../../test/helpers/recording-proxy.js';
import { waitFor } from '../../../../test/helpers/server-harness.js';
import { type ContentInput, createInProcessExtractor } from '../../../extraction/worker/content-extractor.js';
import { closeChromium, findChromium, launchChromium } from '../../../platform/browser/launch-chromium.js';
import {
  type FakeHttpServer,
  listenOnLoopback,
  startFakeHttpServer,
} from '../../../testing/fake-http-server.js';
import type { PageReader } from '../../spec/page-reader.js';
import { createBuiltinReader } from '../builtin/builtin-reader.js';
import { type BrowserReaderSettings, createBrowserReader } from './browser-reader.js';

// A real Chromium reads pages served on 127.0.0.1 under made-up names. The guard resolves the names
// with a test resolver (app.test is "public"; intranet.test and metadata.test are not); what it
// lets through is fetched from, or dialled to, servers on loopback, and every call is recorded
// (createLoopbackEgress), so no packet leaves 127.0.0.1 and a refusal is seen to happen before any
// connection. Chromium itself resolves no name (launch flags) and sends everything to the guard.
const chromium = findChromium(undefined);
const canRun = chromium.available || process.env.CI === 'true';
if (!canRun) console.warn('browser reader tests skipped: no Chromium (apt-get install chromium)');

const article = {
  title: 'Tides of Brest',
  paragraphs: [
    'High tide at Brest is at 12:04 today, says the harbour master.',
    'Low tide follows at 18:17, and the next spring tide is due on Friday.',
  ],
};
const addresses = {
  'app.test': ['93.184.216.34'],
  'intranet.test': ['10.0.0.7'],
  'metadata.test': ['169.254.169.254'],
};

let web: FakeHttpServer;
let sink: Server;
let sinkPort: number;
const sinkConnections: Socket[] = [];
let udp: UdpSocket;
let udpPackets = 0;
let egress: LoopbackEgress;
let crashOnce: (() => Promise<void>) | undefined;

const probeScript = (udpPort: number) => `
  fetch('http://intranet.test/secret').catch(() => undefined);
  fetch('http://10.0.0.9/secret').catch(() => undefined);
  fetch('http://127.0.0.1:9/secret').catch(() => undefined);
  fetch('https://app.test/over-tls').catch(() => undefined);
  try { new WebSocket('ws://app.test/ws'); } catch (error) {}
  try { new WebSocket('wss://app.test:8443/wss'); } catch (error) {}
  navigator.serviceWorker && navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  var frame = document.createElement('iframe'); frame.src = 'http://metadata.test/latest/meta-data/'; document.body.appendChild(frame);
  var file = document.createElement('iframe'); file.src = 'file:///etc/passwd'; document.body.appendChild(file);
  var peer = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${udpPort}' }] });
  peer.createDataChannel('probe');
  peer.createOffer().then(function (offer) { return peer.setLocalDescription(offer); });
`;

beforeAll(async () => {
  udp = createSocket('udp4');
  udp.on('message', () => udpPackets++);
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', () => resolve()));
  const udpPort = udp.address().port;
  web = await startFakeHttpServer(async (request, response): Promise<void> => {
    const html = (body: string, status = 200) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      response.end(body);
    };
    switch (request.path) {
      case '/app':
        return html(
          appShellPage({ article: { dataUrl: '/api/article' } }).replace(
            '</body>',
            '<img src="/photo.png"><video src="/clip.mp4"></video><style>@font-face{font-family:x;src:url(/font.woff2)}body{font-family:x}</style></body>',
          ),
        );
      case '/api/article':
        await new Promise((resolve) => setTimeout(resolve, 300));
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end(JSON.stringify(article));
      case '/probe':
        return html(appShellPage({ article, extraScript: probeScript(udpPort) }));
      case '/redirect-private':
        response.writeHead(302, { location: 'http://intranet.test/admin' });
        return void response.end();
      case '/script-navigation':
        return html(
          `<p>Moving on</p><script>location.href = 'http://metadata.test/latest/meta-data/';</script>`,
        );
      case '/polling':
        return html(
          appShellPage({ article, extraScript: "setInterval(function () { fetch('/poll'); }, 100);" }),
        );
      case '/poll':
        return void response.end('{}');
      case '/hang':
        return; // never answered
      case '/crash-once': {
        const crash = crashOnce;
        crashOnce = undefined;
        if (crash) await crash();
        return html(appShellPage({ article }));
      }
      case '/data.json':
        response.writeHead(200, { 'content-type': 'application/json' });
        return void response.end('{"tide":"12:04"}');
      case '/robots.txt':
        response.writeHead(200, { 'content-type': 'text/plain' });
        return void response.end('User-agent: *\nDisallow: /members');
      case '/members':
        return html(appShellPage({ article }));
      default:
        return html('<h1>Not here</h1>', 404);
    }
  });
  sink = createServer((socket) => {
    sinkConnections.push(socket);
    socket.on('error', () => undefined);
    socket.destroy();
  });
  sinkPort = await listenOnLoopback(sink);
});

beforeEach(() => {
  web.requests.length = 0;
  sinkConnections.length = 0;
  udpPackets = 0;
  egress = createLoopbackEgress({
    addresses,
    webHosts: ['app.test'],
    httpBase: web.url,
    tunnelPort: sinkPort,
  });
});

afterAll(async () => {
  await closeChromium();
  await web?.close();
  await new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve()));
  udp?.close();
});

function reader(settings: Partial<BrowserReaderSettings> = {}): PageReader {
  return createBrowserReader({
    chromium,
    timeoutMs: 15_000,
    lookup: egress.lookup,
    proxyFetch: egress.fetch,
    dial: egress.dial,
    ...settings,
  });
}

const requested = () => web.requests.map((request) => request.path);

describe.skipIf(!canRun)('browser reader (real Chromium, everything on 127.0.0.1)', () => {
  it('reads the text a script writes after fetching it; the builtin reader finds an empty shell', async () => {
    const page = await reader().read('http://app.test/app');
    expect(page.text).toContain(article.paragraphs[0]);
    expect(page.text).toContain(article.paragraphs[1]);
    expect(page.text).not.toContain('Copyright and terms');
    expect(page).toMatchObject({ url: 'http://app.test/app', requestedUrl: 'http://app.test/app' });
    expect(page.emptyShell).toBeUndefined();
    // Images, media and fonts were never asked for.
    expect(requested()).toEqual(expect.arrayContaining(['/app', '/api/article']));
    expect(requested()).not.toEqual(expect.arrayContaining(['/photo.png']));
    expect(requested().filter((path) => /\.(png|mp4|woff2)$/.test(path))).toEqual([]);
    const builtin = await createBuiltinReader({ allowPrivateNetwork: true }).read(`${web.url}/app`);
    expect(builtin.text).not.toContain(article.paragraphs[0]);
    expect(builtin.emptyShell).toBe(true);
  });

  it('hands the rendered DOM to the extractor it is given (the extraction pool), cut at maxBytes', async () => {
    const inputs: ContentInput[] = [];
    const inProcess = createInProcessExtractor();
    const extractor = {
      extract: (input: ContentInput) => {
        inputs.push(input);
        return inProcess.extract(input);
      },
    };
    const page = await reader({ extractor }).read('http://app.test/app');
    expect(page.text).toContain(article.paragraphs[0]);
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({
      requestedUrl: 'http://app.test/app',
      fetched: { url: 'http://app.test/app', contentType: 'text/html; charset=utf-8', truncated: false },
    });
    // The HTML handed over is the DOM after the script ran, not the shell that was sent.
    expect(new TextDecoder().decode(inputs[0]!.fetched.bytes)).toContain(article.paragraphs[1]);
    const cut = await reader({ extractor, maxBytes: 600 }).read('http://app.test/app');
    expect(inputs[1]!.fetched).toMatchObject({ truncated: true });
    expect(inputs[1]!.fetched.bytes.byteLength).toBe(600);
    expect(cut.text).toContain('only the first 600 bytes were read');
  });

  it('puts every request of the page through the guard: private names and addresses, WebSockets, file:, workers', async () => {
    const problems: string[] = [];
    const page = await reader({
      onProxyProblem: (problem) =>
        problems.push(`${problem.kind} ${problem.target}: ${problem.error.message}`),
    }).read('http://app.test/probe');
    expect(page.text).toContain(article.paragraphs[0]);
    // (Chromium itself keeps a public page from fetching 127.0.0.1; were it sent, the guard would
    // refuse it as the proxy's own tests show, and the onward fetch below would fail the test.)
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^refused http:\/\/intranet\.test\/secret: .*resolves to 10\.0\.0\.7/),
        expect.stringMatching(/^refused http:\/\/10\.0\.0\.9\/secret: .*private network address/),
        expect.stringMatching(/^refused http:\/\/metadata\.test\/latest\/meta-data\/: .*cloud metadata/),
        expect.stringMatching(/^refused app\.test:80: refusing a WebSocket \(ws:\)/),
        expect.stringMatching(/^refused app\.test:8443: refusing a secure WebSocket \(wss:\)/),
      ]),
    );
    expect(page.text).not.toContain('root:x:0');
    // Only app.test was fetched or dialled: the https request's tunnel (Chromium may retry it after
    // the failed handshake); the wss one, on port 8443, never got a dial.
    expect(egress.fetched.filter((url) => !url.startsWith('http://app.test/'))).toEqual([]);
    expect(new Set(egress.dialled)).toEqual(new Set(['app.test:443']));
    expect(requested()).not.toEqual(expect.arrayContaining(['/secret']));
    expect(requested().filter((path) => ['/ws', '/wss', '/sw.js', '/secret'].includes(path))).toEqual([]);
    expect(sinkConnections.length).toBeGreaterThanOrEqual(1);
    // WebRTC sent nothing to the STUN server on loopback (UDP would go around any proxy).
    expect(udpPackets).toBe(0);
  });

  it('refuses a redirect, or a script navigation, to a private address with the guard’s reason', async () => {
    await expect(reader().read('http://app.test/redirect-private')).rejects.toMatchObject({
      name: 'BlockedUrlError',
      message: expect.stringContaining('intranet.test resolves to 10.0.0.7, a private network address'),
    });
    await expect(reader().read('http://app.test/script-navigation')).rejects.toMatchObject({
      name: 'BlockedUrlError',
      message: expect.stringContaining('cloud metadata address'),
    });
    expect(egress.fetched.filter((url) => !url.startsWith('http://app.test/'))).toEqual([]);
  });

  it('refuses file: and private URLs before starting a browser', async () => {
    const browserless = reader({ chromium: { available: false, reason: 'not needed here' } });
    await expect(browserless.read('file:///etc/passwd')).rejects.toMatchObject({
      name: 'BlockedUrlError',
      message: expect.stringContaining('only http and https'),
    });
    await expect(browserless.read('http://intranet.test/')).rejects.toMatchObject({
      name: 'BlockedUrlError',
    });
    await expect(browserless.read('http://[::1]:8080/')).rejects.toMatchObject({ name: 'BlockedUrlError' });
    await expect(browserless.read('http://app.test/app')).rejects.toThrow('not needed here');
  });

  it('reads a page that never settles at the deadline, and gives up on one that never answers', async () => {
    const started = Date.now();
    const page = await reader({ timeoutMs: 4_000 }).read('http://app.test/polling');
    expect(page.text).toContain(article.paragraphs[0]);
    // It waited for the network until the deadline (the polls went on), not for ever.
    const polls = requested().filter((path) => path === '/poll').length;
    expect(polls).toBeGreaterThan(10);
    expect(Date.now() - started).toBeLessThan(60_000);
    await expect(reader({ timeoutMs: 2_000 }).read('http://app.test/hang')).rejects.toMatchObject({
      code: 'page_timeout',
      message: 'http://app.test/hang did not load within 2s',
    });
  });

  it('stops a read when its signal aborts', async () => {
    const controller = new AbortController();
    const read = reader({ timeoutMs: 60_000 }).read('http://app.test/hang', { signal: controller.signal });
    await waitFor(() => requested().includes('/hang'), 30_000);
    controller.abort(new Error('the client went away'));
    await expect(read).rejects.toMatchObject({ name: 'AbortedError' });
  });

  it('starts the browser again after it crashed, during a read or between reads', async () => {
    const first = await launchChromium(chromium);
    crashOnce = async () => {
      const session = await first.newBrowserCDPSession();
      await session.send('Browser.crash').catch(() => undefined);
    };
    const page = await reader().read('http://app.test/crash-once');
    expect(page.text).toContain(article.paragraphs[0]);
    expect(first.isConnected()).toBe(false);
    const second = await launchChromium(chromium);
    expect(second).not.toBe(first);
    await (await second.newBrowserCDPSession()).send('Browser.crash').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await reader().read('http://app.test/app')).text).toContain(article.paragraphs[1]);
  });

  it('behind a configured proxy: the page and its script’s fetches go through it, private ones never reach it', async () => {
    const upstream = await startRecordingProxy({
      credentials: { username: 'alice', password: 's3cret' },
      hosts: { 'tides.example.org': Number(new URL(web.url).port) },
    });
    try {
      // tides.example.org is unknown to the test resolver: only the proxy can reach it, so a read
      // that went around the proxy would fail before any connection instead of leaving loopback.
      const proxyUrl = upstream.url.replace('http://', 'http://alice:s3cret@');
      const proxy = { http: { url: proxyUrl, setBy: 'HTTP_PROXY' }, noProxy: [] };
      const dial: BrowserReaderSettings['dial'] = ({ host, port }) => {
        throw new Error(`dialled ${host}:${port} directly although a proxy is configured`);
      };
      const behind = (settings: Partial<BrowserReaderSettings> = {}) =>
        reader({ proxy, proxyFetch: undefined, dial, ...settings });
      const page = await behind().read('http://tides.example.org/app');
      expect(page.text).toContain(article.paragraphs[0]);
      expect(upstream.requests).toEqual(
        expect.arrayContaining([
          {
            method: 'GET',
            target: 'http://tides.example.org/app',
            proxyAuthorization: expect.stringMatching(/^Basic /),
          },
          expect.objectContaining({ method: 'GET', target: 'http://tides.example.org/api/article' }),
        ]),
      );
      // Nothing went around the proxy: the guard's own onward fetch and dial were never used.
      expect(egress.fetched).toEqual([]);
      await expect(behind().read('http://tides.example.org/redirect-private')).rejects.toMatchObject({
        name: 'BlockedUrlError',
        message: expect.stringContaining('intranet.test resolves to 10.0.0.7'),
      });
      expect(upstream.requests.map((request) => request.target)).not.toEqual(
        expect.arrayContaining([expect.stringContaining('intranet.test')]),
      );
    } finally {
      await upstream.close();
    }
  });

  it('hands what is not HTML to the builtin reader, honours robots.txt, and says HTTP errors', async () => {
    const documents = createBuiltinReader({ allowPrivateNetwork: true });
    // Straight to the server on 127.0.0.1, allowed as the other reader tests allow loopback.
    const local = (settings: Partial<BrowserReaderSettings>) =>
      reader({
        allowPrivateNetwork: true,
        lookup: undefined,
        proxyFetch: undefined,
        dial: undefined,
        ...settings,
      });
    const json = await local({ documents }).read(`${web.url}/data.json`);
    expect(json.text).toContain('"tide": "12:04"');
    await expect(reader().read('http://app.test/data.json')).rejects.toMatchObject({
      code: 'page_unsupported_type',
    });
    await expect(
      local({ documents, respectRobotsTxt: true }).read(`${web.url}/members`),
    ).rejects.toMatchObject({
      code: 'page_disallowed_by_robots',
    });
    expect(requested()).not.toContain('/members');
    await expect(reader().read('http://app.test/nowhere')).rejects.toMatchObject({
      code: 'page_http_error',
      statusCode: 404,
    });
  });
});

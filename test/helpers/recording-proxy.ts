import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { listenOnLoopback } from '../../src/testing/fake-http-server.js';

/** One request the proxy was asked to carry. */
export interface ProxiedRequest {
  /** 'CONNECT' for a tunnel, else the forwarded request's method. */
  method: string;
  /** `host:port` for a tunnel, the absolute URL for a forwarded request. */
  target: string;
  /** The Proxy-Authorization header as sent, if any. */
  proxyAuthorization?: string;
}

export interface RecordingProxyOptions {
  /** Asks for these credentials (Basic): a request without them, or with others, gets a 407. */
  credentials?: { username: string; password: string };
  /** Answers every CONNECT with this status instead of tunnelling (a proxy whose policy refuses). */
  refuseConnectWith?: number;
  /**
   * Names the proxy resolves itself, to a port on 127.0.0.1: a name the client's DNS does not know.
   * Loopback targets (127.0.0.1, localhost, [::1]) are carried as they are.
   */
  hosts?: Readonly<Record<string, number>>;
}

export interface RecordingProxy {
  /** http://127.0.0.1:PORT, without credentials. */
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A forward proxy on 127.0.0.1 for tests: plain HTTP forwarding (absolute-form requests) and
 * CONNECT tunnels, each recorded. It connects only to 127.0.0.1: any other target is answered 502
 * without a lookup or a connection, so no packet of a test leaves loopback.
 */
export async function startRecordingProxy(options: RecordingProxyOptions = {}): Promise<RecordingProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming, response) => {
    if (!admit(incoming, options, requests, incoming.url ?? '')) return deny(response);
    forward(incoming, response, options);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (incoming: IncomingMessage, client: Socket) => {
    client.on('error', () => undefined);
    const fail = (status: number, extra = '') =>
      client.end(`HTTP/1.1 ${status} Proxy Says No\r\n${extra}\r\n`);
    if (!admit(incoming, options, requests, incoming.url ?? '')) {
      return fail(407, 'Proxy-Authenticate: Basic realm="test"\r\n');
    }
    if (options.refuseConnectWith) return fail(options.refuseConnectWith);
    const port = loopbackPort(incoming.url ?? '', options);
    if (port === undefined) return fail(502);
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function admit(
  incoming: IncomingMessage,
  options: RecordingProxyOptions,
  requests: ProxiedRequest[],
  target: string,
): boolean {
  const proxyAuthorization = incoming.headers['proxy-authorization'];
  requests.push({
    method: incoming.method ?? 'GET',
    target,
    ...(proxyAuthorization ? { proxyAuthorization } : {}),
  });
  if (!options.credentials) return true;
  const { username, password } = options.credentials;
  return proxyAuthorization === `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

function deny(response: ServerResponse): void {
  response.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"', 'content-type': 'text/plain' });
  response.end('proxy authentication required');
}

function forward(incoming: IncomingMessage, response: ServerResponse, options: RecordingProxyOptions): void {
  let url: URL;
  try {
    url = new URL(incoming.url ?? '');
  } catch {
    response.writeHead(400).end('absolute-form request expected');
    return;
  }
  const port = loopbackPort(url.host, options);
  if (port === undefined || url.protocol !== 'http:') {
    response.writeHead(502).end('the test proxy reaches only 127.0.0.1');
    return;
  }
  const headers = { ...incoming.headers };
  delete headers['proxy-authorization'];
  delete headers['proxy-connection'];
  const upstream = httpRequest(
    { host: '127.0.0.1', port, method: incoming.method, path: `${url.pathname}${url.search}`, headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on('error', () => {
    if (!response.headersSent) response.writeHead(502);
    response.end();
  });
  incoming.pipe(upstream);
}

/** The 127.0.0.1 port a `host:port` target means, or undefined when it is not on loopback. */
function loopbackPort(hostPort: string, options: RecordingProxyOptions): number | undefined {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostPort);
  if (!match) return undefined;
  const host = match[1]!.toLowerCase();
  const mapped = options.hosts?.[host];
  if (mapped !== undefined) return mapped;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) return undefined;
  return Number(match[2] ?? 80);
}

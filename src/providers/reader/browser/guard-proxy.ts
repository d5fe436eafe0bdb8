import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { ProxySettings } from '../../../config/proxy-settings.js';
import { BlockedUrlError, isAbortError } from '../../../core/errors/index.js';
import { describeNetworkError } from '../../../platform/http/describe-network-error.js';
import { assertUrlAllowed, type HostLookup } from '../../../platform/http/network-guard.js';
import { createOutboundFetch } from '../../../platform/http/outbound-fetch.js';
import { createProxyRoute } from '../../../platform/http/proxy-route.js';
import { type DialTunnel, handleTunnel } from './guard-tunnel.js';

export interface GuardProxyOptions {
  allowPrivateNetwork: boolean;
  /** DNS lookup for the guard, before each request and at each connection; tests inject one. */
  lookup?: HostLookup;
  /** The corporate proxy and NO_PROXY (resolveProxySettings): where allowed requests go next. */
  proxy?: ProxySettings;
  /** Bytes carried to the browser, every response and tunnel together; past it, connections are cut. */
  maxBytes: number;
  /** Forwards plain-http requests; default the outbound fetch with the guard. Tests inject one. */
  fetch?: typeof globalThis.fetch;
  /** Opens a direct tunnel's connection; default net.connect with the guarded lookup. Tests inject one. */
  dial?: DialTunnel;
  /** Told each request refused or failed, as it happens. */
  onProblem?: (problem: ProxyProblem) => void;
}

/** A request the proxy did not carry: refused by the guard, or failed on the way. */
export interface ProxyProblem {
  /** The URL (forwarded request) or host:port (tunnel). */
  target: string;
  host: string;
  port: number;
  kind: 'refused' | 'failed';
  error: Error;
}

export interface GuardProxy {
  /** http://127.0.0.1:PORT, for the browser's --proxy-server. */
  readonly url: string;
  readonly problems: readonly ProxyProblem[];
  /** What went wrong with a request for this URL, else with any request to its host and port. */
  problemFor(url: string): ProxyProblem | undefined;
  /** Stops listening and cuts every connection. */
  close(): Promise<void>;
}

/** What the request and tunnel handlers share: the guard, the route onward, the byte budget. */
export interface GuardContext {
  readonly options: GuardProxyOptions;
  readonly route: ReturnType<typeof createProxyRoute>;
  /** Throws (and records) the guard's refusal of a URL; a tunnel's URL is https://host:port/. */
  check(url: URL, target: string): Promise<void>;
  refuse(url: URL, target: string, reason: string): void;
  fail(url: URL, target: string, error: unknown): void;
  /**
   * Counts bytes sent to the browser for a request; false (and the request's failure recorded) once
   * the budget is spent: the caller then cuts the connection.
   */
  spend(url: URL, target: string, bytes: number): boolean;
}

/**
 * The proxy a browser reader's Chromium talks to, alone, on 127.0.0.1: every request a page makes
 * passes the network guard here before anything is dialled, then goes direct (to the address the
 * guard checked) or through the configured proxy. Plain http is forwarded; https arrives as CONNECT
 * tunnels, opened only for TLS that offers HTTP/2, which every Chromium page request does and a
 * WebSocket does not. WebSocket upgrades and schemes other than http(s) are refused.
 */
export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  const problems: ProxyProblem[] = [];
  const sockets = new Set<Socket>();
  let spent = 0;
  const record = (url: URL, target: string, kind: ProxyProblem['kind'], error: Error) => {
    const problem = { target, host: bareHost(url), port: portOf(url), kind, error };
    problems.push(problem);
    options.onProblem?.(problem);
  };
  const context: GuardContext = {
    options,
    route: createProxyRoute(options.proxy),
    async check(url, target) {
      try {
        await assertUrlAllowed(url.href, {
          allowPrivateNetwork: options.allowPrivateNetwork,
          lookup: options.lookup,
          viaProxy: context.route(url) !== undefined,
        });
      } catch (error) {
        record(url, target, 'refused', error as Error);
        throw error;
      }
    },
    refuse: (url, target, reason) =>
      record(url, target, 'refused', new BlockedUrlError(reason, { url: target })),
    fail: (url, target, error) => record(url, target, 'failed', asError(error)),
    spend(url, target, bytes) {
      spent += bytes;
      if (spent <= options.maxBytes) return true;
      context.fail(url, target, new Error(`the page's requests went over ${options.maxBytes} bytes`));
      return false;
    },
  };
  const forward = createForwarder(context);
  const server = createServer((incoming, response) => void forward(incoming, response));
  server.on('connect', (incoming: IncomingMessage, socket: Socket, head: Buffer) =>
    handleTunnel(context, { target: incoming.url ?? '', socket, head }),
  );
  server.on('upgrade', (incoming: IncomingMessage, socket: Socket) => {
    const url = parseAbsolute(incoming.url) ?? new URL('http://invalid.invalid/');
    context.refuse(
      url,
      incoming.url ?? '',
      `refusing a WebSocket to ${url.host}: pages may not open WebSockets`,
    );
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    problems,
    problemFor(url) {
      const parsed = parseAbsolute(url);
      if (!parsed) return undefined;
      const sameTarget = problems.find((problem) => problem.target === parsed.href);
      return sameTarget ?? problems.find((p) => p.host === bareHost(parsed) && p.port === portOf(parsed));
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Headers that belong to one hop (RFC 9110 §7.6.1) or to the browser's link with this proxy. */
const hopHeaders = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

/**
 * Plain-http requests (absolute-form): checked, then fetched with redirects left to the browser
 * (each hop comes back here and is checked again). fetch decodes the body, so the answer goes on
 * without its content-encoding; the browser is offered the encodings fetch decodes.
 */
function createForwarder(context: GuardContext) {
  const { options } = context;
  const fetch =
    options.fetch ??
    createOutboundFetch({
      proxy: options.proxy,
      guard: { allowPrivateNetwork: options.allowPrivateNetwork, lookup: options.lookup },
    });
  return async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const target = incoming.url ?? '';
    const url = parseAbsolute(target);
    if (url?.protocol !== 'http:') {
      const shown = url ? url.protocol : JSON.stringify(target.slice(0, 80));
      context.refuse(
        url ?? new URL('http://invalid.invalid/'),
        target,
        `refusing to fetch ${shown}: only http and https pages are fetched`,
      );
      return void response.writeHead(403, { 'content-type': 'text/plain' }).end('refused by deepsearch');
    }
    try {
      await context.check(url, target);
    } catch (error) {
      return void response.writeHead(403, { 'content-type': 'text/plain' }).end(asError(error).message);
    }
    const abort = new AbortController();
    response.on('close', () => abort.abort());
    let answer: Response;
    try {
      answer = await fetch(url, {
        method: incoming.method,
        headers: forwardedHeaders(incoming),
        redirect: 'manual',
        signal: abort.signal,
        ...(incoming.method === 'GET' || incoming.method === 'HEAD'
          ? {}
          : { body: Readable.toWeb(incoming) as ReadableStream, duplex: 'half' }),
      } as RequestInit);
    } catch (error) {
      if (!abort.signal.aborted && !isAbortError(error)) context.fail(url, target, error);
      return void response.writeHead(502, { 'content-type': 'text/plain' }).end(asError(error).message);
    }
    await relay(context, { url, target, answer, response });
  };
}

function forwardedHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (hopHeaders.has(name) || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  headers.set('accept-encoding', 'gzip, deflate, br');
  return headers;
}

async function relay(
  context: GuardContext,
  input: { url: URL; target: string; answer: Response; response: ServerResponse },
): Promise<void> {
  const { answer, response } = input;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of answer.headers) {
    if (hopHeaders.has(name) || name === 'content-encoding' || name === 'content-length') continue;
    if (name !== 'set-cookie') headers[name] = value;
  }
  const cookies = answer.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  response.writeHead(answer.status, headers);
  try {
    for await (const chunk of (answer.body ?? []) as AsyncIterable<Uint8Array>) {
      if (!context.spend(input.url, input.target, chunk.byteLength)) {
        response.destroy();
        return;
      }
      if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
    }
    response.end();
  } catch {
    response.destroy();
  }
}

function parseAbsolute(target: string | undefined): URL | undefined {
  if (!target || !URL.canParse(target)) return undefined;
  return new URL(target);
}

export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

export function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'http:' || url.protocol === 'ws:' ? 80 : 443;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(describeNetworkError(error));
}

import { connect, type Socket } from 'node:net';
import { type Duplex, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type ConnectLookup, createGuardedLookup } from '../../../platform/http/guarded-lookup.js';
import type { GuardContext } from './guard-proxy.js';
import { readTunnelOpening, type TunnelOpening } from './tunnel-opening.js';
import { openUpstreamTunnel } from './upstream-tunnel.js';

/** How a direct tunnel's connection is opened: to `host`, resolved by `lookup` (which refuses non-public addresses). */
export type DialTunnel = (options: { host: string; port: number; lookup: ConnectLookup }) => Socket;

/** How long a browser has to send its first bytes into an open tunnel. */
const openingTimeoutMs = 10_000;

/**
 * A CONNECT from the browser: the target checked by the guard, the tunnel accepted, its first
 * bytes read before anything is dialled (TLS offering HTTP/2, or refused), then the connection
 * opened (direct to the address the guard's lookup checked, or through the configured proxy)
 * and both ways piped, the way back counted against the budget.
 */
export function handleTunnel(
  context: GuardContext,
  input: { target: string; socket: Socket; head: Buffer },
): void {
  const { socket, target } = input;
  socket.on('error', () => undefined);
  void (async () => {
    const url = tunnelUrl(target);
    if (!url) return void socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    try {
      await context.check(url, target);
    } catch {
      return void socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    const { opening, bytes } = await readOpening(socket, input.head);
    const refusal = refusalOf(opening, url);
    if (refusal) {
      context.refuse(url, target, refusal);
      return void socket.destroy();
    }
    let upstream: Duplex;
    try {
      upstream = await dial(context, url);
    } catch (error) {
      context.fail(url, target, error);
      return void socket.destroy();
    }
    upstream.write(bytes);
    await splice(context, { url, target, socket, upstream });
  })();
}

function tunnelUrl(target: string): URL | undefined {
  if (!/^(\[[0-9a-f:.]+\]|[^\s:/?#[\]@]+):\d{1,5}$/i.test(target)) return undefined;
  return URL.canParse(`https://${target}/`) ? new URL(`https://${target}/`) : undefined;
}

/** Why the opening bytes may not go on, or undefined for a TLS connection as pages make them. */
function refusalOf(opening: TunnelOpening, url: URL): string | undefined {
  if (opening.kind === 'tls' && opening.protocols.includes('h2')) return undefined;
  if (opening.kind === 'tls') {
    return `refusing a secure WebSocket (wss:) to ${url.host}: pages may not open WebSockets`;
  }
  if (opening.kind === 'incomplete') return `refusing a tunnel to ${url.host}: nothing was sent in it`;
  return `refusing a WebSocket (ws:) or other plain-text connection to ${url.host} through a tunnel`;
}

/** The first record the browser sends (more bytes than that, or a timeout, end the wait). */
function readOpening(socket: Socket, head: Buffer): Promise<{ opening: TunnelOpening; bytes: Buffer }> {
  return new Promise((resolve) => {
    let bytes = head;
    const finish = (opening: TunnelOpening) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.pause();
      resolve({ opening, bytes });
    };
    const onData = (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      const opening = readTunnelOpening(bytes);
      if (opening.kind !== 'incomplete' || bytes.length > 32_768) finish(opening);
    };
    const onClose = () => finish({ kind: 'incomplete' });
    const timer = setTimeout(onClose, openingTimeoutMs);
    const already = readTunnelOpening(bytes);
    if (already.kind !== 'incomplete') return finish(already);
    socket.on('data', onData);
    socket.on('close', onClose);
  });
}

async function dial(context: GuardContext, url: URL): Promise<Duplex> {
  const proxy = context.route(url);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || 443);
  if (proxy) return openUpstreamTunnel({ proxy, url, host, port });
  const { allowPrivateNetwork, lookup } = context.options;
  const guardedLookup = createGuardedLookup({ allowPrivateNetwork, lookup });
  const socket = (context.options.dial ?? connect)({ host, port, lookup: guardedLookup });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve();
    });
    socket.once('error', reject);
  });
  return socket;
}

async function splice(
  context: GuardContext,
  input: { url: URL; target: string; socket: Socket; upstream: Duplex },
): Promise<void> {
  const { socket, upstream } = input;
  upstream.on('error', () => undefined);
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (context.spend(input.url, input.target, chunk.byteLength)) return done(null, chunk);
      done(new Error('byte budget spent'));
    },
  });
  socket.resume();
  await Promise.allSettled([pipeline(socket, upstream), pipeline(upstream, counted, socket)]);
  socket.destroy();
  upstream.destroy();
}

import { createServer, type Server } from 'node:net';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../../testing/fake-http-server.js';
import { readTunnelOpening } from './tunnel-opening.js';

// ClientHellos as Node's TLS sends them, captured by a plain TCP server on 127.0.0.1 (the handshake
// goes no further).
let server: Server;
let port: number;
const captured: Array<(bytes: Buffer) => void> = [];

beforeAll(async () => {
  server = createServer((socket) => {
    socket.once('data', (bytes) => {
      captured.shift()?.(bytes);
      socket.destroy();
    });
  });
  port = await listenOnLoopback(server);
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function clientHello(protocols: string[] | undefined): Promise<Buffer> {
  const bytes = new Promise<Buffer>((resolve) => captured.push(resolve));
  const socket = connect({ host: '127.0.0.1', port, servername: 'example.test', ALPNProtocols: protocols });
  socket.on('error', () => undefined);
  return bytes;
}

describe('readTunnelOpening', () => {
  it('reads the protocols a ClientHello offers', async () => {
    expect(readTunnelOpening(await clientHello(['h2', 'http/1.1']))).toEqual({
      kind: 'tls',
      protocols: ['h2', 'http/1.1'],
    });
    expect(readTunnelOpening(await clientHello(['http/1.1']))).toEqual({
      kind: 'tls',
      protocols: ['http/1.1'],
    });
    expect(readTunnelOpening(await clientHello(undefined))).toEqual({ kind: 'tls', protocols: [] });
  });

  it('waits for the rest of a record cut short', async () => {
    const hello = await clientHello(['h2']);
    expect(readTunnelOpening(hello.subarray(0, 3))).toEqual({ kind: 'incomplete' });
    expect(readTunnelOpening(hello.subarray(0, hello.length - 1))).toEqual({ kind: 'incomplete' });
    expect(readTunnelOpening(new Uint8Array())).toEqual({ kind: 'incomplete' });
  });

  it('takes plain text, another record type or a mangled hello for something else', async () => {
    expect(readTunnelOpening(Buffer.from('GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\n'))).toEqual({
      kind: 'other',
    });
    const hello = Buffer.from(await clientHello(['h2']));
    expect(readTunnelOpening(Buffer.concat([Buffer.from([0x17]), hello.subarray(1)]))).toEqual({
      kind: 'other',
    });
    const notHello = Buffer.from(hello);
    notHello[5] = 0x02; // a ServerHello
    expect(readTunnelOpening(notHello)).toEqual({ kind: 'other' });
    // A hello claiming more extension bytes than its record holds.
    const truncated = Buffer.concat([
      hello.subarray(0, 3),
      Buffer.from([0x00, 0x30]),
      hello.subarray(5, 5 + 0x30),
    ]);
    expect(readTunnelOpening(truncated)).toEqual({ kind: 'other' });
  });
});

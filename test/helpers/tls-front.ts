import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createServer } from 'node:tls';
import { listenOnLoopback } from '../../src/testing/fake-http-server.js';

export interface TestCertificate {
  /** PEM file of the self-signed certificate: NODE_EXTRA_CA_CERTS makes a Node process trust it. */
  certFile: string;
  key: string;
  cert: string;
}

/**
 * A throwaway self-signed certificate for localhost and 127.0.0.1, made by the machine's openssl
 * (in the Debian image CI uses; .ci/run installs it where missing).
 */
export function createTestCertificate(dir: string): TestCertificate {
  const keyFile = join(dir, 'test-key.pem');
  const certFile = join(dir, 'test-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
}

export interface TlsFront {
  /** https://localhost:PORT: the name the certificate is for. */
  url: string;
  close(): Promise<void>;
}

/** TLS on 127.0.0.1 in front of a plain HTTP server on loopback: an https endpoint for a fake. */
export async function startTlsFront(options: {
  certificate: TestCertificate;
  targetUrl: string;
}): Promise<TlsFront> {
  const target = new URL(options.targetUrl);
  const sockets = new Set<Socket>();
  const server = createServer({ key: options.certificate.key, cert: options.certificate.cert }, (client) => {
    const upstream = connect(Number(target.port), '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await listenOnLoopback(server);
  return {
    url: `https://localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

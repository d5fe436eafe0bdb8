import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a port of its own (`--metrics-port`), in Prometheus's text format, without a
 * key: for a scraper on the deployment's private network (a worker has no API to put it behind).
 */
export async function listenMetrics(options: {
  host: string;
  port: number;
  registry: Registry;
}): Promise<MetricsServer> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"not_found"}');
      return;
    }
    options.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': options.registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
    );
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

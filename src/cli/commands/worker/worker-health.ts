import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WorkerHealth {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `GET /health` of a worker (`--health-port`), for a container's HEALTHCHECK or a liveness probe:
 * 200 while it takes jobs, 503 once it stops. A worker whose event loop is stuck does not answer,
 * which is what such a probe is for (its runs are taken over by other workers meanwhile).
 */
export async function listenWorkerHealth(options: {
  host: string;
  port: number;
  taking: () => boolean;
}): Promise<WorkerHealth> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/health' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"not_found"}');
      return;
    }
    const taking = options.taking();
    response
      .writeHead(taking ? 200 : 503, { 'content-type': 'application/json' })
      .end(JSON.stringify({ status: taking ? 'ok' : 'stopping', role: 'worker' }));
  });
  server.listen(options.port, options.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/health`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

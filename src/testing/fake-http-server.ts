import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';

/** What a client sent, so tests can check the request a provider makes and not only its parsing. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query parameters; the last value wins when one is repeated. */
  query: Record<string, string>;
  /** Lower-case header names, as Node gives them. */
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answer with `response`; leaving it unanswered simulates a server that hangs. */
export type FakeHttpHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeHttpServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 and a random port; every request is recorded before the handler runs. */
export async function startFakeHttpServer(handler: FakeHttpHandler): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    void handle(incoming, response);
  });

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const request = await recordRequest(incoming);
      requests.push(request);
      await handler(request, response);
    } catch (error) {
      // A failing handler is a bug in the test: answer 500 with the reason rather than hang.
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`fake server handler failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging test handlers keep sockets open; close them or close() never returns.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts a server (HTTP, TLS, TCP) on 127.0.0.1 and a free port; resolves with the port. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function recordRequest(incoming: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const url = new URL(incoming.url ?? '/', 'http://fake.invalid');
  return {
    method: incoming.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: incoming.headers,
    body: Buffer.concat(chunks).toString('utf8'),
  };
}

/** http://127.0.0.1:PORT where nothing listens: a server is started, its port noted, and the server closed. */
export async function closedPortUrl(): Promise<string> {
  const server = await startFakeHttpServer((_request, response) => {
    response.end();
  });
  await server.close();
  return server.url;
}

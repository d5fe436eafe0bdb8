import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directFetch } from './direct-fetch.js';

// Every case runs through directFetch and through Node's own fetch against the same server on
// 127.0.0.1: directFetch promises fetch's answers, so fetch is the expected value.
const fetches = { direct: directFetch, node: globalThis.fetch } as const;

let server: Server;
let base: string;
const big = 'x'.repeat(5 * 1024 * 1024);
let held: ServerResponse | undefined;

function route(request: IncomingMessage, response: ServerResponse, body: string): void {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  switch (path) {
    case '/echo':
      response.setHeader('content-type', 'application/json');
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.end(
        JSON.stringify({
          method: request.method,
          body,
          contentType: request.headers['content-type'] ?? null,
          contentLength: request.headers['content-length'] ?? null,
          accept: request.headers.accept ?? null,
          custom: request.headers['x-custom'] ?? null,
          encoding: request.headers['accept-encoding'] ?? null,
          userAgent: request.headers['user-agent'] ?? null,
        }),
      );
      return;
    case '/gzip':
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      response.end(gzipSync('decoded text'));
      return;
    case '/gzip-br':
      response.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip, br' });
      response.end(brotliCompressSync(gzipSync('twice encoded')));
      return;
    case '/empty':
      response.writeHead(204);
      response.end();
      return;
    case '/error':
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"boom"}}');
      return;
    case '/redirect':
      response.writeHead(307, { location: '/echo' });
      response.end();
      return;
    case '/big':
      response.end(big);
      return;
    case '/slow-headers':
      setTimeout(() => response.end('late'), 2000).unref();
      return;
    case '/stream':
      // The rest comes only once the client asks for it, having read the first event.
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
      held = response;
      return;
    case '/release':
      held?.end('data: second\n\n');
      response.end('released');
      return;
    case '/hang-body':
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.write('part one');
      return;
    case '/die':
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      response.write('only some');
      setTimeout(() => request.socket.destroy(), 50).unref();
      return;
    default:
      response.writeHead(404);
      response.end('not here');
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => route(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** What a caller can see of a response: status, the headers asked for, the body's text. */
async function seen(response: Response, headerNames: string[] = []) {
  return {
    status: response.status,
    statusText: response.statusText,
    ok: response.ok,
    headers: Object.fromEntries(headerNames.map((name) => [name, response.headers.get(name)])),
    body: response.body === null ? null : await response.text(),
  };
}

/** What a caller can see of a failure: its class, message, the cause's code and message. */
function failure(error: unknown) {
  const cause = (error as { cause?: { code?: string } }).cause;
  return {
    name: (error as Error).name,
    message: (error as Error).message,
    causeCode: cause?.code,
  };
}

async function both<T>(run: (fetch: typeof globalThis.fetch) => Promise<T>): Promise<{ direct: T; node: T }> {
  return { direct: await run(fetches.direct), node: await run(fetches.node) };
}

describe('directFetch answers as Node fetch does', () => {
  it('a POST with a string body: the server gets the same method, body and default headers', async () => {
    const { direct, node } = await both(async (fetch) => {
      const response = await fetch(`${base}/echo`, {
        method: 'POST',
        headers: new Headers({ 'x-custom': 'yes' }),
        body: '{"q":"é"}',
      });
      const view = await seen(response, ['content-type', 'set-cookie']);
      return { ...view, body: JSON.parse(view.body ?? '{}') };
    });
    expect(direct.body).toMatchObject({
      method: 'POST',
      body: '{"q":"é"}',
      contentType: 'text/plain;charset=UTF-8',
      contentLength: '10',
      accept: '*/*',
      custom: 'yes',
    });
    expect(direct.body.encoding).toContain('gzip');
    // The same, except the user agent's version fetch writes ("node" against undici's "node").
    expect({ ...direct, body: { ...direct.body, encoding: 0, userAgent: 0 } }).toEqual({
      ...node,
      body: { ...node.body, encoding: 0, userAgent: 0 },
    });
  });

  it('a form body gets its content type; a caller content type is kept', async () => {
    const { direct, node } = await both(async (fetch) => {
      const form = await fetch(`${base}/echo`, { method: 'POST', body: new URLSearchParams({ q: 'a b' }) });
      const json = await fetch(`${base}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new TextEncoder().encode('{}'),
      });
      return [await form.json(), await json.json()];
    });
    expect(direct[0]).toMatchObject({
      body: 'q=a+b',
      contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
    });
    expect(direct[1]).toMatchObject({ body: '{}', contentType: 'application/json' });
    expect(direct.map((body) => body.contentType)).toEqual(node.map((body) => body.contentType));
  });

  it('error statuses, empty replies, gzip bodies, 404s', async () => {
    for (const path of ['/error', '/empty', '/gzip', '/gzip-br', '/missing']) {
      const { direct, node } = await both(async (fetch) =>
        seen(await fetch(`${base}${path}`), ['content-type']),
      );
      expect(direct, path).toEqual(node);
    }
    expect((await directFetch(`${base}/gzip`)).status).toBe(200);
    expect(await (await directFetch(`${base}/gzip`)).text()).toBe('decoded text');
    expect(await (await directFetch(`${base}/gzip-br`)).text()).toBe('twice encoded');
  });

  it('follows a redirect, or hands the 3xx back when asked to', async () => {
    const { direct, node } = await both(async (fetch) => {
      const followed = await fetch(`${base}/redirect`, { method: 'POST', body: 'again' });
      const manual = await fetch(`${base}/redirect`, { redirect: 'manual' });
      const error = await fetch(`${base}/redirect`, { redirect: 'error' }).then(
        () => 'no error',
        (caught) => (caught as Error).message,
      );
      return [JSON.parse(await followed.text()), manual.status, manual.headers.get('location'), error];
    });
    expect(direct[0]).toMatchObject({ method: 'POST', body: 'again' });
    expect(direct.slice(1)).toEqual([307, '/echo', 'fetch failed']);
    expect(direct.slice(1)).toEqual(node.slice(1));
  });

  it('a large body arrives whole', async () => {
    const text = await (await directFetch(`${base}/big`)).text();
    expect(text.length).toBe(big.length);
  });

  it('a streamed body can be read before the server ends it', async () => {
    const response = await directFetch(`${base}/stream`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    // Were the body held back until the server ends it, this read would never return.
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    expect(await (await directFetch(`${base}/release`)).text()).toBe('released');
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += new TextDecoder().decode(part.value);
    expect(rest).toBe('data: second\n\n');
  });

  it('a refused connection is "fetch failed" with ECONNREFUSED as its cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { direct, node } = await both((fetch) =>
      fetch(`http://127.0.0.1:${port}/`).then(() => undefined, failure),
    );
    expect(direct).toEqual({ name: 'TypeError', message: 'fetch failed', causeCode: 'ECONNREFUSED' });
    expect(direct).toEqual(node);
  });

  it('aborts reject with the signal reason: before sending, before the headers, during the body', async () => {
    const { direct, node } = await both(async (fetch) => {
      const before = new AbortController();
      before.abort(new Error('gone before'));
      const early = await fetch(`${base}/echo`, { signal: before.signal }).then(
        () => 'sent',
        (e) => e,
      );

      const waiting = new AbortController();
      setTimeout(() => waiting.abort(new Error('gone waiting')), 100);
      const headers = await fetch(`${base}/slow-headers`, { signal: waiting.signal }).then(
        () => 'answered',
        (e) => e,
      );

      const reading = new AbortController();
      const response = await fetch(`${base}/hang-body`, { signal: reading.signal });
      setTimeout(() => reading.abort(new Error('gone reading')), 100);
      const body = await response.text().then(
        () => 'read',
        (e) => e,
      );
      return [early, headers, body];
    });
    expect(direct.map((error) => (error as Error).message)).toEqual([
      'gone before',
      'gone waiting',
      'gone reading',
    ]);
    expect(direct.map((error) => (error as Error).message)).toEqual(
      node.map((error) => (error as Error).message),
    );
  });

  it('a body cut off by the server is a "terminated" TypeError', async () => {
    const { direct, node } = await both(async (fetch) => {
      const response = await fetch(`${base}/die`);
      return response.text().then(() => ({ name: 'none', message: 'read', causeCode: undefined }), failure);
    });
    expect(direct).toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(direct.message).toBe(node.message);
  });

  it('a Request object or a stream body goes to Node fetch itself', async () => {
    const viaRequest = await directFetch(new Request(`${base}/echo`, { method: 'POST', body: 'r' }));
    expect(await viaRequest.json()).toMatchObject({ method: 'POST', body: 'r' });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'));
        controller.close();
      },
    });
    const viaStream = await directFetch(`${base}/echo`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(await viaStream.json()).toMatchObject({ body: 'streamed' });
  });
});

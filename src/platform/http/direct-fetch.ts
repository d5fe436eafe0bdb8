import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * `fetch` for direct requests to the services a person configured (LLM, search, embeddings,
 * rerank, Jina), over node:http and node:https instead of Node's WHATWG fetch. Same answers, a
 * third less CPU a call: fetch's spec machinery (request and response objects, header guards,
 * its own body streams and connection pool in JavaScript) was a tenth of a busy server's time,
 * and an LLM call, streamed or not, needs none of it.
 *
 * What a caller sees is fetch's: a Response (status, headers, a streamed body), the request's
 * defaults (accept, user-agent, accept-encoding, a text body's content type), bodies decompressed,
 * a failure as `TypeError('fetch failed', { cause })` with the system error (ECONNREFUSED...) as
 * its cause, an abort as the signal's reason, a body cut off as `TypeError('terminated')`, and a
 * connection that takes over 10 s to open as UND_ERR_CONNECT_TIMEOUT. What it does not do itself
 * goes to Node's fetch unchanged: a Request object as input, a stream, form or blob body, and a
 * redirect to follow (the 3xx is dropped and the same request sent by fetch, which follows it).
 */
export function directFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const body = init?.body ?? undefined;
  const payload = toPayload(body);
  if (input instanceof Request || payload === unsupported) return globalThis.fetch(input, init);
  const url = typeof input === 'string' ? new URL(input) : input;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return globalThis.fetch(input, init);
  const redirect = init?.redirect ?? 'follow';
  return send(url, init, payload).then((response) => {
    if (!isRedirect(response.status)) return response;
    if (redirect === 'manual') return response;
    void response.body?.cancel();
    if (redirect === 'error')
      throw new TypeError('fetch failed', { cause: new Error('unexpected redirect') });
    return globalThis.fetch(input, init);
  });
}

const unsupported = Symbol('unsupported body');
type Payload = { bytes: string | Uint8Array; type?: string } | undefined;

function toPayload(body: RequestInit['body'] | undefined): Payload | typeof unsupported {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return { bytes: body, type: 'text/plain;charset=UTF-8' };
  if (body instanceof Uint8Array) return { bytes: body };
  if (body instanceof ArrayBuffer) return { bytes: new Uint8Array(body) };
  if (body instanceof URLSearchParams)
    return { bytes: body.toString(), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  return unsupported;
}

const agents = {
  // As Node's own global agents: connections kept for the next request, idle ones closed after 5 s.
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 }),
};
const connectTimeoutMs = 10_000;
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);
const isRedirect = (status: number) => status >= 300 && status < 400 && status !== 304;

function send(url: URL, init: RequestInit | undefined, payload: Payload): Promise<Response> {
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers = requestHeaders(init?.headers, payload);
  const method = (init?.method ?? 'GET').toUpperCase();
  return new Promise<Response>((resolve, reject) => {
    const fail = (error: unknown) =>
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, { method, headers, agent: agents[url.protocol as 'http:'] });
    const onAbort = () => request.destroy(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    request.once('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => request.destroy(connectTimeout()), connectTimeoutMs);
      socket.once('connect', () => clearTimeout(timer));
      socket.once('close', () => clearTimeout(timer));
    });
    request.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      fail(error);
    });
    request.once('response', (message) => {
      try {
        resolve(toResponse(message, method, signal, () => signal?.removeEventListener('abort', onAbort)));
      } catch (error) {
        message.destroy();
        fail(error);
      }
    });
    request.end(payload?.bytes);
  });
}

function requestHeaders(given: HeadersInit | undefined, payload: Payload): Record<string, string> {
  const headers: Record<string, string> = {};
  if (given) for (const [name, value] of new Headers(given)) headers[name] = value;
  headers.accept ??= '*/*';
  headers['user-agent'] ??= 'node';
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  if (payload) {
    if (payload.type) headers['content-type'] ??= payload.type;
    headers['content-length'] = String(Buffer.byteLength(payload.bytes));
  }
  return headers;
}

function toResponse(
  message: IncomingMessage,
  method: string,
  signal: AbortSignal | undefined,
  done: () => void,
): Response {
  const status = message.statusCode ?? 0;
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2)
    headers.append(raw[index] as string, raw[index + 1] as string);
  const init = { status, statusText: message.statusMessage ?? '', headers };
  if (method === 'HEAD' || nullBodyStatuses.has(status)) {
    message.resume();
    message.once('end', done);
    return new Response(null, init);
  }
  return new Response(bodyStream(message, signal, done), init);
}

/** The message's bytes, decoded as its content-encoding says, as a web stream that keeps backpressure. */
function bodyStream(
  message: IncomingMessage,
  signal: AbortSignal | undefined,
  done: () => void,
): ReadableStream<Uint8Array> {
  const source = decoded(message);
  let ended = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const cutOff = (error?: unknown) => {
        if (ended) return;
        ended = true;
        done();
        controller.error(signal?.aborted ? signal.reason : new TypeError('terminated', { cause: error }));
      };
      source.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) source.pause();
      });
      source.once('end', () => {
        if (ended) return;
        ended = true;
        done();
        controller.close();
      });
      source.once('error', cutOff);
      // A connection closed before the whole message arrived (the server died, or an abort).
      message.once('close', () => {
        if (!message.complete) cutOff(new Error('other side closed'));
      });
    },
    pull() {
      source.resume();
    },
    cancel(reason) {
      ended = true;
      done();
      message.destroy(reason instanceof Error ? reason : undefined);
      if (source !== message) source.destroy();
    },
  });
}

function decoded(message: IncomingMessage): Readable {
  const encoding = String(message.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
      : encoding === 'deflate'
        ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return message;
  message.once('error', (error) => decoder.destroy(error));
  return message.pipe(decoder);
}

function connectTimeout(): Error {
  return Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
}

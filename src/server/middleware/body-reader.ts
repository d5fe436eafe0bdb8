import type { MiddlewareHandler } from 'hono';
import { clientClosedStatus, HttpError } from '../http/http-error.js';
import type { ServerEnv } from '../server-env.js';

const bodyMethods = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Reads a request's body before any route sees it: at most `maxBytes` (413 beyond), within
 * `timeoutMs` (408 when a client trickles or never ends a chunked body), and a client that hangs
 * up mid-body is a client error (499 in the log), never a 500. Routes then read the buffered text
 * with `c.req.text()` / `c.req.json()` as usual, so every route, present and future, is covered.
 */
export function createBodyReader(options: {
  maxBytes: number;
  timeoutMs: number;
}): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    if (!bodyMethods.has(c.req.method)) return next();
    const declared = Number(c.req.header('content-length'));
    if (Number.isFinite(declared) && declared > options.maxBytes) throw tooLarge(options.maxBytes);
    // A declared length the limit allows is read whole by the adapter (on Node, straight from the
    // socket: no web stream per request); a chunked body is read chunk by chunk against the limit.
    const text = Number.isFinite(declared)
      ? await readDeclaredBody(c.req.raw, options.timeoutMs)
      : await readBody(c.req.raw, options);
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
    return next();
  };
}

/**
 * A body whose length the client declared (at most the limit; the HTTP parser ends the body
 * there), as text, within the timeout.
 */
async function readDeclaredBody(request: Request, timeoutMs: number): Promise<string> {
  const { timedOut, clear } = bodyTimeout(timeoutMs);
  const text = request.text();
  // Read on after a timeout only to be dropped with the connection.
  text.catch(() => {});
  try {
    return await Promise.race([text, timedOut]);
  } catch (error) {
    if (HttpError.isInstance(error)) throw error;
    throw clientClosed();
  } finally {
    clear();
  }
}

async function readBody(request: Request, options: { maxBytes: number; timeoutMs: number }): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const { timedOut, clear } = bodyTimeout(options.timeoutMs);
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timedOut]);
      if (done) break;
      size += value.byteLength;
      if (size > options.maxBytes) throw tooLarge(options.maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    // What is left of the body is not read: the response closes the connection instead.
    try {
      reader.releaseLock();
    } catch {
      // a read still pending: the stream is dropped with the connection anyway
    }
    if (HttpError.isInstance(error)) throw error;
    throw clientClosed();
  } finally {
    clear();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A promise rejected with 408 once `timeoutMs` have passed (unless cleared first). */
function bodyTimeout(timeoutMs: number): { timedOut: Promise<never>; clear(): void } {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new HttpError(`the request body was not received within ${timeoutMs / 1000}s`, {
          status: 408,
          type: 'invalid_request_error',
          code: 'request_timeout',
          headers: { connection: 'close' },
        }),
      );
    }, timeoutMs);
  });
  return { timedOut, clear: () => clearTimeout(timer) };
}

function clientClosed(): HttpError {
  return new HttpError('the client closed the connection before sending the whole request', {
    status: clientClosedStatus,
    type: 'invalid_request_error',
    code: 'client_closed_request',
  });
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(`the request body is larger than ${maxBytes} bytes`, {
    status: 413,
    type: 'invalid_request_error',
    code: 'request_too_large',
    headers: { connection: 'close' },
  });
}

import type { MiddlewareHandler } from 'hono';
import { echoInput } from '../http/echo-input.js';
import { HttpError } from '../http/http-error.js';

const bodyMethods = new Set(['POST', 'PUT', 'PATCH']);

/** A body is announced by a non-zero Content-Length or by chunked transfer encoding. */
function hasBody(request: Request): boolean {
  const length = request.headers.get('content-length');
  return request.headers.has('transfer-encoding') || (length !== null && length.trim() !== '0');
}

/**
 * A body must be sent as `application/json` (415 otherwise; a POST without a body goes on to its
 * route, which says what is missing). Besides saying what the API reads,
 * it makes every browser request a CORS-preflighted one, never a "simple request".
 */
export function createJsonContentTypeGuard(): MiddlewareHandler {
  return async (c, next) => {
    if (!bodyMethods.has(c.req.method) || !hasBody(c.req.raw)) return next();
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      throw new HttpError(
        `the request body must be sent with Content-Type: application/json${type ? ` (got '${echoInput(type)}')` : ''}`,
        { status: 415, type: 'invalid_request_error', code: 'unsupported_media_type' },
      );
    }
    return next();
  };
}

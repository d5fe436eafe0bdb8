import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { HttpError } from './http-error.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `Authorization: Bearer <key>` against the configured keys. Keys are compared as SHA-256 digests
 * with timingSafeEqual, so neither the content nor the length of a key leaks through timing; every
 * key is checked even after a match. No keys configured: everything passes.
 */
export function createBearerAuth(options: { apiKeys: readonly string[] }): MiddlewareHandler {
  const expected = options.apiKeys.map(digest);
  return async (c, next) => {
    if (expected.length === 0) return next();
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('missing API key: send it as "Authorization: Bearer <key>"');
    const sent = digest(match[1]!);
    let valid = false;
    for (const key of expected) valid = timingSafeEqual(key, sent) || valid;
    if (!valid) throw unauthorized('invalid API key');
    return next();
  };
}

function unauthorized(message: string): HttpError {
  return new HttpError(message, {
    status: 401,
    type: 'authentication_error',
    code: 'invalid_api_key',
    headers: { 'www-authenticate': 'Bearer' },
  });
}

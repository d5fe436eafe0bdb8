import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../http/http-error.js';
import type { ServerEnv } from '../server-env.js';

const digest = (value: string) => createHash('sha256').update(value).digest();
const bearerPattern = /^Bearer\s+(\S+)\s*$/i;

/** Who owns the runs of a request: `local` on a server without keys, else the key's SHA-256. */
export const localOwner = 'local';

/**
 * The owner a request's `Authorization` header proves (`local` when no keys are configured), or
 * undefined when it names no valid key. Keys are compared as SHA-256 digests with timingSafeEqual,
 * so neither the content nor the length of a key leaks through timing; every key is checked even
 * after a match.
 */
export function createKeyCheck(options: {
  apiKeys: readonly string[];
}): (authorization: string | undefined) => string | undefined {
  const expected = options.apiKeys.map(digest);
  return (authorization) => {
    if (expected.length === 0) return localOwner;
    const match = bearerPattern.exec(authorization ?? '');
    if (!match) return undefined;
    const sent = digest(match[1]!);
    let valid = false;
    for (const key of expected) valid = timingSafeEqual(key, sent) || valid;
    // The key itself is never stored: its digest names the owner of the runs it starts.
    return valid ? `key:${sent.toString('hex')}` : undefined;
  };
}

/** `Authorization: Bearer <key>` against the configured keys (createKeyCheck); no keys: everything passes. */
export function createBearerAuth(options: { apiKeys: readonly string[] }): MiddlewareHandler<ServerEnv> {
  const check = createKeyCheck(options);
  return async (c, next) => {
    const header = c.req.header('authorization');
    const owner = check(header);
    if (owner === undefined) {
      throw unauthorized(
        bearerPattern.test(header ?? '')
          ? 'invalid API key'
          : 'missing API key: send it as "Authorization: Bearer <key>"',
      );
    }
    c.set('owner', owner);
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

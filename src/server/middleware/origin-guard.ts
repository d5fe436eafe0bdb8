import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { echoInput } from '../http/echo-input.js';
import { HttpError } from '../http/http-error.js';

/**
 * Whether a request's Origin is one of the configured ones, compared as the guard and the CORS
 * headers both need it: case and a trailing slash of the setting (`http://App.example/`) aside.
 */
export function allowedOrigins(corsOrigins: readonly string[]): (origin: string) => boolean {
  const allowed = new Set(corsOrigins.map((origin) => origin.trim().replace(/\/+$/, '').toLowerCase()));
  return (origin) => allowed.has(origin.trim().toLowerCase());
}

/**
 * Refuses a cross-origin request from a browser whose Origin the CORS setting does not allow
 * (403). CORS headers alone only stop a page from reading the answer: a "simple request" (a POST
 * with text/plain) would still start a paid run. Requests without Origin (not from a browser) and
 * same-origin ones pass.
 */
export function createOriginGuard(options: { corsOrigins: readonly string[] }): MiddlewareHandler {
  const anyOrigin = options.corsOrigins.includes('*');
  const allowed = allowedOrigins(options.corsOrigins);
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || anyOrigin) return next();
    const normalized = origin.trim().toLowerCase();
    if (allowed(normalized) || isSameOrigin(normalized, c.req.header('host'))) return next();
    throw new HttpError(
      `cross-origin requests from '${echoInput(origin)}' are not allowed (see the server's CORS origins setting)`,
      { status: 403, type: 'invalid_request_error', code: 'origin_not_allowed' },
    );
  };
}

function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === new URL(`http://${host.trim().toLowerCase()}`).host;
  } catch {
    return false;
  }
}

/**
 * CORS headers for the configured origins (none configured: no middleware, browsers keep to the
 * same origin). The request's own Origin is echoed when it is an allowed one, matched as the
 * origin guard matches it: a setting written `http://App.example/` still sends the header browsers
 * need.
 */
export function createCorsPolicy(options: { corsOrigins: readonly string[] }): MiddlewareHandler | undefined {
  if (options.corsOrigins.length === 0) return undefined;
  const allowed = allowedOrigins(options.corsOrigins);
  return cors({
    origin: options.corsOrigins.includes('*')
      ? '*'
      : (requestOrigin: string) => (allowed(requestOrigin) ? requestOrigin : null),
    // No fixed list: the request's Access-Control-Request-Headers are echoed, so the openai SDK's
    // x-stainless-* headers pass preflight (only for the allowed origins).
    allowHeaders: [],
    exposeHeaders: ['X-Request-Id', 'Retry-After', 'Mcp-Session-Id'],
    maxAge: 600,
  });
}

import { isIP } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { echoInput } from '../http/echo-input.js';
import { HttpError } from '../http/http-error.js';

// The checks a request passes on its headers alone, before any route: Host, Origin (and the CORS
// headers that go with it), Content-Type, and whether the server still takes requests.

/** The host name of a Host header value, lower case, without port or IPv6 brackets. */
function hostNameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return value.slice(1, end < 0 ? undefined : end);
  }
  return value.replace(/:\d*$/, '');
}

/**
 * Refuses a request whose Host is a name this server does not answer to (403). A DNS-rebinding
 * page reaches a loopback server under its own name (Host: evil.example), so names are refused
 * unless listed; IP literals and localhost are always accepted (a request to them was not
 * rebound), and so is the address the server is bound to. `*` in allowedHosts turns the check off.
 */
export function createHostGuard(options: { boundHost: string; allowedHosts: readonly string[] }) {
  const allowed = new Set(
    [...options.allowedHosts, options.boundHost].map((host) => (isIP(host) ? host : hostNameOf(host))),
  );
  const anyHost = allowed.has('*');
  const middleware: MiddlewareHandler = async (c, next) => {
    if (anyHost) return next();
    const header = c.req.header('host');
    if (!header)
      throw new HttpError('missing Host header', {
        status: 400,
        type: 'invalid_request_error',
        code: 'missing_host',
      });
    const name = hostNameOf(header);
    const accepted =
      isIP(name) !== 0 ||
      name === 'localhost' ||
      name.endsWith('.localhost') ||
      allowed.has(name) ||
      [...allowed].some((host) => host.startsWith('.') && name.endsWith(host));
    if (!accepted) {
      throw new HttpError(
        `this server does not answer to the host name '${echoInput(name)}' (add it to the server's allowed hosts)`,
        { status: 403, type: 'invalid_request_error', code: 'host_not_allowed' },
      );
    }
    return next();
  };
  return middleware;
}

/**
 * Whether a request's Origin is one of the configured ones, compared as the guard and the CORS
 * headers both need it: case and a trailing slash of the setting (`http://App.example/`) aside.
 */
function allowedOrigins(corsOrigins: readonly string[]): (origin: string) => boolean {
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

/**
 * Once shutdown started, a new API request is a 503 on a connection that closes: running ones get
 * the grace period (start-server.ts), new ones go to another instance.
 */
export function createDrainGuard(options: { isDraining: () => boolean }): MiddlewareHandler {
  return async (c, next) => {
    if (options.isDraining()) {
      c.header('connection', 'close');
      throw new HttpError('the server is shutting down', {
        status: 503,
        type: 'server_error',
        code: 'shutting_down',
      });
    }
    return next();
  };
}

import { isIP } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import { echoInput } from '../http/echo-input.js';
import { HttpError } from '../http/http-error.js';

/** The host name of a Host header value, lower case, without port or IPv6 brackets. */
export function hostNameOf(hostHeader: string): string {
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

import type { Hono } from 'hono';
import { HttpError } from '../http/http-error.js';
import type { ServerEnv } from '../server-env.js';

/**
 * Registered after the routes: any other method on a known path is a 405 with `Allow` (a 404
 * would tell the client the endpoint does not exist, which sends people looking for a typo).
 */
export function addMethodNotAllowed(app: Hono<ServerEnv>, routes: Record<string, readonly string[]>): void {
  for (const [path, methods] of Object.entries(routes)) {
    const allow = methods.includes('GET') ? [...methods, 'HEAD'] : [...methods];
    app.all(path, (c) => {
      throw new HttpError(`${c.req.method} is not allowed on ${c.req.path} (use ${methods.join(' or ')})`, {
        status: 405,
        type: 'invalid_request_error',
        code: 'method_not_allowed',
        headers: { Allow: allow.join(', ') },
      });
    });
  }
}

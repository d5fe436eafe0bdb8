import type { MiddlewareHandler } from 'hono';
import { HttpError } from '../http/http-error.js';

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

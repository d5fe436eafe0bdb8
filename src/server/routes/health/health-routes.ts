import { Hono } from 'hono';
import type { ServiceUnavailableError } from '../../../core/errors/index.js';
import type { ConcurrencyLimiter } from '../../concurrency/concurrency-limiter.js';
import type { ServerEnv } from '../../server-env.js';

/**
 * GET /health (the process answers: liveness) and GET /ready (it takes requests: 503 while
 * draining, and while a backing service cannot be reached, naming it: Redis or Postgres in queue
 * mode, the SQLite run store on one machine). Both
 * sit before the API's guards: a probe sends no key. How busy the server is, /ready tells only a
 * client that sends a valid one.
 */
export function createHealthRoutes(options: {
  isDraining: () => boolean;
  limiter: Pick<ConcurrencyLimiter, 'running' | 'queued'>;
  /** The owner an Authorization header proves, undefined for none or a wrong key (bearer-auth.ts). */
  keyCheck: (authorization: string | undefined) => string | undefined;
  /** The backing service that cannot be reached now, if any (queue mode's monitor, or the run store's read). */
  checkServices?: () => Promise<ServiceUnavailableError | undefined>;
}): Hono<ServerEnv> {
  const { limiter } = options;
  const app = new Hono<ServerEnv>();
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', async (c) => {
    if (options.isDraining()) return c.json({ status: 'draining' }, 503);
    const away = await options.checkServices?.();
    if (away) {
      c.var.record.errorCode = away.code;
      c.var.record.error = away.message;
      const error = { message: away.message, type: 'server_error', param: null, code: away.code };
      return c.json({ status: 'unavailable', error }, 503, { 'retry-after': String(away.retryAfterSeconds) });
    }
    if (options.keyCheck(c.req.header('authorization')) === undefined) return c.json({ status: 'ready' });
    return c.json({ status: 'ready', running: limiter.running, queued: limiter.queued });
  });
  return app;
}

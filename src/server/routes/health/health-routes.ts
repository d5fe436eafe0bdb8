import { Hono } from 'hono';
import type { ConcurrencyLimiter } from '../../concurrency/concurrency-limiter.js';
import type { ServerEnv } from '../../server-env.js';

/**
 * GET /health (the process answers) and GET /ready (it takes requests: 503 while draining). Both
 * sit before the API's guards: a probe sends no key. How busy the server is, /ready tells only a
 * client that sends a valid one.
 */
export function createHealthRoutes(options: {
  isDraining: () => boolean;
  limiter: Pick<ConcurrencyLimiter, 'running' | 'queued'>;
  /** The owner an Authorization header proves, undefined for none or a wrong key (bearer-auth.ts). */
  keyCheck: (authorization: string | undefined) => string | undefined;
}): Hono<ServerEnv> {
  const { limiter } = options;
  const app = new Hono<ServerEnv>();
  app.get('/health', (c) => c.json({ status: 'ok' }));
  app.get('/ready', (c) => {
    if (options.isDraining()) return c.json({ status: 'draining' }, 503);
    if (options.keyCheck(c.req.header('authorization')) === undefined) return c.json({ status: 'ready' });
    return c.json({ status: 'ready', running: limiter.running, queued: limiter.queued });
  });
  return app;
}

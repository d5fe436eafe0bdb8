import { Hono } from 'hono';
import type { Registry } from 'prom-client';
import type { ServerEnv } from '../../server-env.js';

/**
 * GET /metrics: the process's Prometheus metrics (src/metrics/), mounted behind the API guards
 * (a key is needed when keys are set); `--metrics-port` serves them without one on a port of its own.
 */
export function createMetricsRoute(options: { registry: Registry }): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  app.get('/', async (c) =>
    c.body(await options.registry.metrics(), 200, { 'content-type': options.registry.contentType }),
  );
  return app;
}

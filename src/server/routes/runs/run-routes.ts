import { Hono } from 'hono';
import type { QueueMode } from '../../../scale/open-queue-mode.js';
import { HttpError } from '../../http/http-error.js';
import type { ApiRouteOptions, ServerEnv } from '../../server-env.js';
import { createQueuedResearchRoutes } from './queued-research-routes.js';
import { createResearchRoutes } from './research-routes.js';

/**
 * The async run API (/v1/research, /v1/runs; mounted at /v1) as this server can serve it: on the
 * shared queue and stores in queue mode, on this process's run store otherwise, and without a run
 * store (runs.enabled off) a 503 that says why on every one of its paths.
 */
export function createRunRoutes(options: ApiRouteOptions & { queue?: QueueMode }): Hono<ServerEnv> {
  if (options.queue) return createQueuedResearchRoutes({ ...options, shared: options.queue });
  const store = options.runtime.runs;
  if (store) return createResearchRoutes({ ...options, store });
  const app = new Hono<ServerEnv>();
  for (const path of ['/research', '/research/*', '/runs', '/runs/*']) app.all(path, runsDisabled);
  return app;
}

function runsDisabled(): never {
  throw new HttpError(
    'runs are not recorded on this server (runs.enabled is off): the run API needs the run store',
    { status: 503, type: 'server_error', code: 'runs_disabled' },
  );
}

import { Hono } from 'hono';
import { createLocalRunBackend } from '../../../scale/local-run-backend.js';
import type { RunBackend } from '../../../scale/run-backend.js';
import { clientRedactorOf } from '../../http/client-redactor.js';
import { HttpError } from '../../http/http-error.js';
import { toErrorResponse } from '../../http/openai-error.js';
import type { ApiRouteOptions, ServerEnv } from '../../server-env.js';
import { createResearchRoutes } from './research-routes.js';

/**
 * The async run API (/v1/research, /v1/runs; mounted at /v1) over this server's backend: the
 * shared queue and stores in queue mode, this process's run store, job queue (in the server's
 * slots) and event log otherwise; without a run store (runs.enabled off) a 503 that says why on
 * every one of its paths.
 */
export function createRunRoutes(options: ApiRouteOptions & { queue?: RunBackend }): Hono<ServerEnv> {
  const backend = options.queue ?? localBackend(options);
  if (backend) return createResearchRoutes({ ...options, backend });
  const app = new Hono<ServerEnv>();
  for (const path of ['/research', '/research/*', '/runs', '/runs/*']) app.all(path, runsDisabled);
  return app;
}

/** One machine's run backend (the server's SQLite run store), or undefined when runs are off. */
export function localBackend(options: ApiRouteOptions): RunBackend | undefined {
  const { runtime } = options;
  if (!runtime.runs) return undefined;
  return createLocalRunBackend({
    runtime,
    runs: runtime.runs,
    slots: options.limiter,
    shutdownSignal: options.shutdownSignal,
    // The client sees what the API would answer for the error, never a provider's internal detail.
    failure: (error) => {
      const { body } = toErrorResponse(error);
      return { ...body.error, message: clientRedactorOf(runtime)(body.error.message) };
    },
  });
}

function runsDisabled(): never {
  throw new HttpError(
    'runs are not recorded on this server (runs.enabled is off): the run API needs the run store',
    { status: 503, type: 'server_error', code: 'runs_disabled' },
  );
}

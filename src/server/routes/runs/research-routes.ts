import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { DeepSearchError } from '../../../core/errors/index.js';
import { anySignal } from '../../../core/link-signals.js';
import { renderPlanMarkdown } from '../../../research/plan/plan-markdown.js';
import { postRun, type RunBackend, requeueRun } from '../../../scale/run-backend.js';
import { clientRedactorOf } from '../../http/client-redactor.js';
import { readJsonObject } from '../../http/read-json-object.js';
import type { ApiRouteOptions, ServerEnv } from '../../server-env.js';
import { createOwnedRuns } from './owned-run.js';
import { parseOutlineRequest, parseResearchRequest, parseResumeRequest } from './research-request.js';
import { runBusy } from './run-not-found.js';
import { runListItem, runObject } from './run-object.js';
import { runListQuery } from './run-query.js';
import { addRunResourceRoutes } from './run-resource-routes.js';

export interface ResearchRoutesOptions extends Omit<ApiRouteOptions, 'models'> {
  backend: RunBackend;
}

/**
 * The async run API under /v1, one set of routes for both deployments (its backend: SQLite, the
 * in-process queue and the memory log on one machine; Postgres, BullMQ and Redis in queue mode):
 * POST /research posts a job that runs whether or not a client stays, /research/outline plans
 * only, /research/{id}/resume goes on with a stored run, /runs lists; each run's own routes are in
 * run-resource-routes.ts. A run is visible only to the owner that started it (404 to anyone else).
 * A run reading as running that nobody holds any more (its process or worker gone) shows as
 * failed, `run_interrupted`, resumable.
 */
export function createResearchRoutes(options: ResearchRoutesOptions): Hono<ServerEnv> {
  const { runtime, backend } = options;
  const app = new Hono<ServerEnv>();
  const runs = createOwnedRuns(backend);
  const context = { config: runtime.config, searchProviders: options.searchProviders };
  app.post('/research', async (c) => {
    const request = parseResearchRequest(await readJsonObject(c), context);
    const createdAt = Math.floor(Date.now() / 1000);
    const id = `run_${randomUUID()}`;
    const { owner } = c.var;
    const { status } = await postRun(backend, {
      id,
      owner,
      question: request.question,
      mode: request.mode,
      record: { owner, source: 'research', mode: request.mode, options: request.options },
      config: request.config,
      data: request.plan ? { plan: request.plan } : {},
    });
    c.var.record.outcome = status;
    const { question, mode } = request;
    return c.json({ id, object: 'run', status, mode, question, created_at: createdAt }, 202);
  });
  // Research's plan alone, to review and edit before the run: `outline` in POST /research follows it.
  app.post('/research/outline', async (c) => {
    const { question, config } = parseOutlineRequest(await readJsonObject(c), context);
    const signal = anySignal(c.req.raw.signal, options.shutdownSignal);
    const release = await options.limiter.acquire({ owner: c.var.owner, signal });
    try {
      const { plan, estimate } = await runtime.outline(question, { signal, config });
      c.var.record.outcome = 'planned';
      return c.json({
        object: 'research.outline',
        question,
        plan,
        estimate,
        markdown: renderPlanMarkdown(plan),
      });
    } finally {
      release();
    }
  });
  app.post('/research/:id/resume', async (c) => {
    const { record, lost } = await runs.owned(c);
    const text = await c.req.text();
    const budget = parseResumeRequest(text.trim() ? await readJsonObject(c) : {});
    // Refused here with its reason (400): still running, complete, no checkpoint.
    const { status } = await requeueRun(backend, record, {
      runId: record.id,
      owner: c.var.owner,
      overrides: { budget },
      interrupted: lost,
    }).catch((error: unknown) => {
      // Two resumes at once: the other one queued it first.
      if (DeepSearchError.isInstance(error) && error.code === 'job_exists') throw runBusy(record.id);
      throw error;
    });
    // The stored record may still hold the earlier end (the run is marked running when it starts).
    const { finished_at: _earlierEnd, ...run } = runObject(record, clientRedactorOf(runtime));
    return c.json({ ...run, status }, 202);
  });
  const resource = {
    backend,
    runs,
    chromiumPath: runtime.config.reader.chromiumPath,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    shutdownSignal: options.shutdownSignal,
    redact: clientRedactorOf(runtime),
  };
  for (const base of ['/research', '/runs']) addRunResourceRoutes(app, base, resource);
  app.get('/runs', async (c) => {
    const { runs: listed, hasMore } = await backend.store.list(runListQuery(c));
    const data = await Promise.all(
      listed.map(async (run) =>
        runListItem((await backend.isInterrupted(run)) ? { ...run, status: 'failed' } : run),
      ),
    );
    return c.json({ object: 'list', data, has_more: hasMore });
  });
  return app;
}

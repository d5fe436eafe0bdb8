import { type Context, Hono } from 'hono';
import { InputError } from '../../../core/errors/index.js';
import { anySignal } from '../../../core/link-signals.js';
import { findChromium } from '../../../platform/browser/launch-chromium.js';
import { renderPlanMarkdown } from '../../../research/plan/plan-markdown.js';
import { isOrphaned, isResumable, resumableRecord } from '../../../runs/resume-target.js';
import { finishedStatuses, type RunRecord } from '../../../runs/run-record.js';
import type { RunStore } from '../../../runs/run-store.js';
import { readJsonObject } from '../../http/read-json-object.js';
import type { ApiRouteOptions, ServerEnv } from '../../server-env.js';
import { exportReport, reportFormats } from './report-export.js';
import { createResearchJobs } from './research-jobs.js';
import { parseOutlineRequest, parseResearchRequest, parseResumeRequest } from './research-request.js';
import { streamRunEvents } from './run-events-stream.js';
import { interruptedError, runNotFound } from './run-not-found.js';
import { runListItem, runObject } from './run-object.js';
import { afterSeq, runListQuery } from './run-query.js';

export interface ResearchRoutesOptions extends Omit<ApiRouteOptions, 'models'> {
  store: RunStore;
}

/**
 * The async run API under /v1: POST /research starts a job that runs whether or not a client
 * stays; GET reads it, /events streams its events (stored, then live), DELETE cancels or deletes
 * it, /runs lists. A run is visible only to the owner that started it: to anyone else it does not
 * exist (404, never 403).
 */
export function createResearchRoutes(options: ResearchRoutesOptions): Hono<ServerEnv> {
  const { store, runtime } = options;
  const jobs = createResearchJobs(options);
  const app = new Hono<ServerEnv>();
  const owned = (c: Context<ServerEnv>): RunRecord => {
    const record = store.get(c.req.param('id') ?? '');
    if (!record || record.owner !== c.var.owner) throw runNotFound(c.req.param('id') ?? '');
    return interrupted(record) ? { ...record, status: 'failed', error: interruptedError(record.id) } : record;
  };
  // A run left `running` by a process that is gone (a server restart, a killed CLI) is not running.
  const interrupted = (run: Pick<RunRecord, 'id' | 'status' | 'pid'>) => !jobs.get(run.id) && isOrphaned(run);

  app.post('/research', async (c) => {
    const request = parseResearchRequest(await readJsonObject(c), {
      config: runtime.config,
      searchProviders: options.searchProviders,
    });
    const createdAt = Math.floor(Date.now() / 1000);
    const { id, status } = await jobs.start({ ...request, owner: c.var.owner });
    c.var.record.outcome = status;
    return c.json(
      { id, object: 'run', status, mode: request.mode, question: request.question, created_at: createdAt },
      202,
    );
  });
  // Research's plan alone, to review and edit before the run: `outline` in POST /research follows it.
  app.post('/research/outline', async (c) => {
    const { question, config } = parseOutlineRequest(await readJsonObject(c), {
      config: runtime.config,
      searchProviders: options.searchProviders,
    });
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
    const record = owned(c);
    const text = await c.req.text();
    const budget = parseResumeRequest(text.trim() ? await readJsonObject(c) : {});
    if (jobs.get(record.id))
      throw new InputError(`run ${record.id} is still running`, { code: 'run_running' });
    // Refused here with its reason (400) before a job starts; the job loads the checkpoint itself.
    resumableRecord({ store, runId: record.id, owner: c.var.owner });
    const { status } = await jobs.resume({ id: record.id, owner: c.var.owner, overrides: { budget } });
    // The stored record may still hold the earlier end (a queued run is marked running later).
    const { finished_at: _earlierEnd, ...run } = runObject(store.get(record.id)!);
    return c.json({ ...run, status }, 202);
  });
  for (const base of ['/research', '/runs']) {
    app.get(`${base}/:id`, (c) => {
      const record = owned(c);
      // Whether POST /research/{id}/resume would take it now: a page shows Resume only then.
      const resumable = !jobs.get(record.id) && isResumable({ store, runId: record.id, owner: c.var.owner });
      const formats = reportFormats(record, findChromium(runtime.config.reader.chromiumPath));
      return c.json({
        ...runObject(record),
        resumable,
        ...(formats.length ? { report_formats: formats } : {}),
      });
    });
    // The finished report as a file: md, html, json, or pdf (Chromium's print, where it runs).
    app.get(`${base}/:id/report`, async (c) =>
      exportReport(owned(c), c.req.query('format'), findChromium(runtime.config.reader.chromiumPath)),
    );
    app.get(`${base}/:id/events`, (c) => {
      const record = owned(c);
      return streamRunEvents(c, {
        runId: record.id,
        after: afterSeq(c),
        store,
        job: jobs.get(record.id),
        heartbeatMs: options.heartbeatMs ?? 15_000,
        finalStatus: () => {
          const now = store.get(record.id);
          if (!now) return 'cancelled';
          return interrupted(now) ? 'failed' : now.status;
        },
      });
    });
    app.delete(`${base}/:id`, async (c) => {
      const record = owned(c);
      const job = jobs.get(record.id);
      if (job) {
        job.cancel();
        await job.done;
        return c.json({ id: record.id, object: 'run', status: 'cancelled' });
      }
      // A run another process still runs (a CLI run) is not deleted under it.
      if (!finishedStatuses.has(record.status) && !isOrphaned(record))
        throw new InputError(`run ${record.id} is not running in this server`, { code: 'run_running' });
      store.delete(record.id);
      return c.json({ id: record.id, object: 'run', deleted: true });
    });
  }
  app.get('/runs', (c) => {
    const { runs, hasMore } = store.list(runListQuery(c));
    const data = runs.map((run) => runListItem(interrupted(run) ? { ...run, status: 'failed' } : run));
    return c.json({ object: 'list', data, has_more: hasMore });
  });
  return app;
}

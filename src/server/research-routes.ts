import { type Context, Hono } from 'hono';
import { anySignal } from '../core/link-signals.js';
import { InputError } from '../errors/index.js';
import { findChromium } from '../providers/browser/launch-chromium.js';
import { renderPlanMarkdown } from '../research/plan/plan-markdown.js';
import { isOrphaned, isResumable, resumableRecord } from '../runs/resume-target.js';
import { finishedStatuses, type RunRecord } from '../runs/run-record.js';
import type { RunListQuery, RunStore } from '../runs/run-store.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import type { ConcurrencyLimiter } from './concurrency-limiter.js';
import { echoInput } from './echo-input.js';
import { HttpError } from './http-error.js';
import { readJsonObject } from './read-chat-request.js';
import { exportReport, reportFormats } from './report-export.js';
import { createResearchJobs } from './research-jobs.js';
import { parseOutlineRequest, parseResearchRequest, parseResumeRequest } from './research-request.js';
import { streamRunEvents } from './run-events-stream.js';
import { runListItem, runObject } from './run-object.js';
import type { ServerEnv } from './server-env.js';

export interface ResearchRoutesOptions {
  runtime: DeepSearchRuntime;
  store: RunStore;
  limiter: ConcurrencyLimiter;
  searchProviders: readonly string[];
  shutdownSignal: AbortSignal;
  heartbeatMs?: number;
}

export const maxListLimit = 100;

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

/** GET /runs's query (limit, before, q, include_evaluations), checked, as the run store takes it. */
export function runListQuery(c: Context<ServerEnv>): RunListQuery {
  const limit = integerParam(c.req.query('limit'), 'limit', 20);
  if (limit < 1 || limit > maxListLimit)
    throw new InputError(`limit must be between 1 and ${maxListLimit}`, {
      param: 'limit',
      code: 'invalid_value',
    });
  const before = c.req.query('before');
  return {
    owner: c.var.owner,
    limit,
    q: c.req.query('q') || undefined,
    before: before === undefined ? undefined : integerParam(before, 'before', 0) * 1000,
    // `deepsearch eval` records a run per question: the history shows them only when asked.
    withoutEvaluations: !booleanParam(c.req.query('include_evaluations'), 'include_evaluations'),
  };
}

export function booleanParam(value: string | undefined, name: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new InputError(`${name} must be true or false`, { param: name, code: 'invalid_value' });
}

/** Last-Event-ID (a reconnecting EventSource sends it) or ?after=: events after this seq. */
export function afterSeq(c: Context<ServerEnv>): number {
  const header = c.req.header('last-event-id');
  const raw = header ?? c.req.query('after');
  return raw === undefined || raw === ''
    ? 0
    : integerParam(raw, header !== undefined ? 'Last-Event-ID' : 'after', 0);
}

export function integerParam(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,15}$/.test(raw.trim()))
    throw new InputError(`${name} must be a whole number (got "${raw.slice(0, 40)}")`, {
      param: name,
      code: 'invalid_value',
    });
  return Number(raw.trim());
}

export function interruptedError(id: string) {
  return {
    message: `the process running it stopped; POST /v1/research/${id}/resume goes on from its last checkpoint`,
    type: 'server_error',
    code: 'run_interrupted',
  };
}

export function runNotFound(id: string): HttpError {
  return new HttpError(`no run '${echoInput(id)}'`, {
    status: 404,
    type: 'not_found_error',
    code: 'run_not_found',
  });
}

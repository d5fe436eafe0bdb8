import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { InputError } from '../../../core/errors/index.js';
import { anySignal } from '../../../core/link-signals.js';
import { findChromium } from '../../../platform/browser/launch-chromium.js';
import { renderPlanMarkdown } from '../../../research/plan/plan-markdown.js';
import { isResumable } from '../../../runs/resume-target.js';
import { finishedStatuses, type RunRecord } from '../../../runs/run-record.js';
import { postRun, type RunBackend, requeueRun, resumeView } from '../../../scale/run-backend.js';
import { readJsonObject } from '../../http/read-json-object.js';
import type { ApiRouteOptions, ServerEnv } from '../../server-env.js';
import { exportReport, reportFormats } from './report-export.js';
import { parseOutlineRequest, parseResearchRequest, parseResumeRequest } from './research-request.js';
import { streamFollowedEvents } from './run-events-stream.js';
import { interruptedError, runNotFound } from './run-not-found.js';
import { runListItem, runObject } from './run-object.js';
import { afterSeq, runListQuery } from './run-query.js';

const neverAborted = new AbortController().signal;

/** How long DELETE waits for a running run to end before answering. */
const cancelWaitMs = 5000;

export interface ResearchRoutesOptions extends Omit<ApiRouteOptions, 'models'> {
  backend: RunBackend;
}

/**
 * The async run API under /v1, one set of routes for both deployments (its backend: SQLite, the
 * in-process queue and the memory log on one machine; Postgres, BullMQ and Redis in queue mode):
 * POST /research posts a job that runs whether or not a client stays; GET reads it, /events
 * streams its events (stored, then live), /report exports its report, DELETE cancels or deletes
 * it, /runs lists. A run is visible only to the owner that started it: to anyone else it does not
 * exist (404, never 403). A run reading as running that nobody holds any more (its process or
 * worker gone) shows as failed, `run_interrupted`, resumable.
 */
export function createResearchRoutes(options: ResearchRoutesOptions): Hono<ServerEnv> {
  const { runtime, backend } = options;
  const { store, queue, log } = backend;
  const app = new Hono<ServerEnv>();
  const chromium = () => findChromium(runtime.config.reader.chromiumPath);
  const ownedRecord = async (c: Context<ServerEnv>) => {
    const id = c.req.param('id') ?? '';
    const record = await store.get(id);
    if (!record || record.owner !== c.var.owner) throw runNotFound(id);
    return record;
  };
  const owned = async (c: Context<ServerEnv>) => {
    const record = await ownedRecord(c);
    const lost = await backend.isInterrupted(record);
    const shown: RunRecord = lost
      ? { ...record, status: 'failed', error: interruptedError(record.id) }
      : record;
    return { record, shown, lost };
  };

  app.post('/research', async (c) => {
    const request = parseResearchRequest(await readJsonObject(c), {
      config: runtime.config,
      searchProviders: options.searchProviders,
    });
    const createdAt = Math.floor(Date.now() / 1000);
    const id = `run_${randomUUID()}`;
    const owner = c.var.owner;
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
    const { record, lost } = await owned(c);
    const text = await c.req.text();
    const budget = parseResumeRequest(text.trim() ? await readJsonObject(c) : {});
    // Refused here with its reason (400): still running, complete, no checkpoint.
    const { status } = await requeueRun(backend, record, {
      runId: record.id,
      owner: c.var.owner,
      overrides: { budget },
      interrupted: lost,
    });
    // The stored record may still hold the earlier end (the run is marked running when it starts).
    const { finished_at: _earlierEnd, ...run } = runObject(record);
    return c.json({ ...run, status }, 202);
  });
  for (const base of ['/research', '/runs']) {
    app.get(`${base}/:id`, async (c) => {
      const { record, shown, lost } = await owned(c);
      // Whether POST /research/{id}/resume would take it now: a page shows Resume only then.
      const view = await resumeView(backend, record, lost);
      const formats = reportFormats(shown, chromium());
      return c.json({
        ...runObject(shown),
        resumable: isResumable({ store: view, runId: record.id, owner: c.var.owner }),
        ...(formats.length ? { report_formats: formats } : {}),
      });
    });
    // The finished report as a file: md, html, json, or pdf (Chromium's print, where it runs).
    app.get(`${base}/:id/report`, async (c) =>
      exportReport((await owned(c)).shown, c.req.query('format'), chromium()),
    );
    app.get(`${base}/:id/events`, async (c) => {
      const record = await ownedRecord(c);
      const after = afterSeq(c);
      // A run already over, or one no job here holds (its process gone, or another process's),
      // has nothing live: its stored events and its status, with no stream read.
      const finished = finishedStatuses.has(record.status);
      const over = finished || !(await queue.has(record.id));
      // The record the follower read to know the run was over: what `done` reports.
      let ended: { record: RunRecord | undefined } | undefined;
      return streamFollowedEvents(c, {
        follow: (signal) =>
          over
            ? log.read(record.id, after)
            : log.follow(record.id, after, {
                signal,
                storedUpTo: record.lastSeq,
                onEnd: (seen) => {
                  ended = { record: seen };
                },
              }),
        heartbeatMs: options.heartbeatMs ?? 15_000,
        // On one machine the run ends with the server, and its stream with the run's `done`.
        shutdownSignal: backend.outlivesProcess ? options.shutdownSignal : neverAborted,
        finalStatus: async () => {
          if (finished) return record.status;
          const now = ended ? ended.record : await store.get(record.id);
          if (!now) return 'cancelled';
          return (await backend.isInterrupted(now)) ? 'failed' : now.status;
        },
      });
    });
    app.delete(`${base}/:id`, async (c) => {
      const { record, lost } = await owned(c);
      if (!finishedStatuses.has(record.status) && !lost) {
        const outcome = await queue.cancel(record.id);
        if (outcome === 'not_found') await assertNotHeldElsewhere(backend, record.id);
        if (outcome === 'removed') await store.finish(record.id, { status: 'cancelled' }, record.attempt);
        if (outcome !== 'signalled') await log.end(record.id);
        else await untilFinished(backend, record.id);
        return c.json({ id: record.id, object: 'run', status: 'cancelled' });
      }
      await store.delete(record.id);
      return c.json({ id: record.id, object: 'run', deleted: true });
    });
  }
  app.get('/runs', async (c) => {
    const { runs, hasMore } = await store.list(runListQuery(c));
    const data = await Promise.all(
      runs.map(async (run) =>
        runListItem((await backend.isInterrupted(run)) ? { ...run, status: 'failed' } : run),
      ),
    );
    return c.json({ object: 'list', data, has_more: hasMore });
  });
  return app;
}

/** Waits (a few seconds at most) for the job to record the cancelled run's end. */
async function untilFinished(backend: RunBackend, id: string): Promise<void> {
  const deadline = Date.now() + cancelWaitMs;
  while (Date.now() < deadline) {
    const record = await backend.store.get(id);
    if (!record || finishedStatuses.has(record.status)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A run no job of this backend holds that still reads as running, held by a live process (a CLI
 * run, a chat completion on this machine), is not ended under it.
 */
async function assertNotHeldElsewhere(backend: RunBackend, id: string): Promise<void> {
  const now = await backend.store.get(id);
  if (now && !finishedStatuses.has(now.status) && !(await backend.isInterrupted(now)))
    throw new InputError(`run ${id} is not running in this server`, { code: 'run_running' });
}

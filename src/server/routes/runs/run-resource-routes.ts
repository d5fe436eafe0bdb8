import type { Context, Hono } from 'hono';
import { InputError } from '../../../core/errors/index.js';
import { findChromium } from '../../../platform/browser/launch-chromium.js';
import { isResumable } from '../../../runs/resume-target.js';
import { finishedStatuses, type RunRecord } from '../../../runs/run-record.js';
import { type RunBackend, resumeView } from '../../../scale/run-backend.js';
import type { ServerEnv } from '../../server-env.js';
import type { OwnedRuns } from './owned-run.js';
import { exportReport, reportFormats } from './report-export.js';
import { streamFollowedEvents } from './run-events-stream.js';
import { addRunEvidenceRoutes } from './run-evidence-routes.js';
import { runObject } from './run-object.js';
import { afterSeq } from './run-query.js';

/** How long DELETE waits for a running run to end before answering. */
const cancelWaitMs = 5000;

const neverAborted = new AbortController().signal;

export interface RunResourceOptions {
  backend: RunBackend;
  runs: OwnedRuns;
  chromiumPath: string | undefined;
  heartbeatMs: number;
  shutdownSignal: AbortSignal;
  /** Text a client is sent passes through it (clientRedactorOf). */
  redact: (text: string) => string;
}

/**
 * One run's routes under `base` (/research and its alias /runs): GET it (with `resumable` and the
 * report's formats), its report as a file, its events as SSE, its evidence and source snapshots
 * (run-evidence-routes.ts), DELETE (cancel, or delete when over).
 */
export function addRunResourceRoutes(app: Hono<ServerEnv>, base: string, options: RunResourceOptions): void {
  const { backend, runs } = options;
  const chromium = () => findChromium(options.chromiumPath);
  app.get(`${base}/:id`, async (c) => {
    const { record, shown, lost } = await runs.owned(c);
    // Whether POST /research/{id}/resume would take it now: a page shows Resume only then.
    const view = await resumeView(backend, record, lost);
    const formats = reportFormats(shown, chromium());
    return c.json({
      ...runObject(shown, options.redact),
      resumable: isResumable({ store: view, runId: record.id, owner: c.var.owner }),
      ...(formats.length ? { report_formats: formats } : {}),
    });
  });
  // The finished report as a file: md, html, json, or pdf (Chromium's print, where it runs).
  app.get(`${base}/:id/report`, async (c) =>
    exportReport((await runs.owned(c)).shown, c.req.query('format'), chromium()),
  );
  app.get(`${base}/:id/events`, async (c) => streamRun(c, options));
  addRunEvidenceRoutes(app, base, options);
  app.delete(`${base}/:id`, async (c) => {
    const { record, lost } = await runs.owned(c);
    if (finishedStatuses.has(record.status) || lost) {
      await backend.store.delete(record.id);
      return c.json({ id: record.id, object: 'run', deleted: true });
    }
    const outcome = await backend.queue.cancel(record.id);
    if (outcome === 'not_found') await assertNotHeldElsewhere(backend, record.id);
    if (outcome === 'removed') await backend.store.finish(record.id, { status: 'cancelled' }, record.attempt);
    if (outcome !== 'signalled') await backend.log.end(record.id);
    else await untilFinished(backend, record.id);
    return c.json({ id: record.id, object: 'run', status: 'cancelled' });
  });
}

/** The run's events after Last-Event-ID as SSE: stored, then live while a job holds it, then `done`. */
async function streamRun(c: Context<ServerEnv>, options: RunResourceOptions): Promise<Response> {
  const { backend } = options;
  const record = await options.runs.record(c);
  const after = afterSeq(c);
  // A run already over, or one no job here holds (its process gone, or another process's),
  // has nothing live: its stored events and its status, with no stream read.
  const finished = finishedStatuses.has(record.status);
  const over = finished || !(await backend.queue.has(record.id));
  // The record the follower read to know the run was over: what `done` reports.
  let ended: { record: RunRecord | undefined } | undefined;
  return streamFollowedEvents(c, {
    follow: (signal) =>
      over
        ? backend.log.read(record.id, after)
        : backend.log.follow(record.id, after, {
            signal,
            storedUpTo: record.lastSeq,
            onEnd: (seen) => {
              ended = { record: seen };
            },
          }),
    heartbeatMs: options.heartbeatMs,
    // On one machine the run ends with the server, and its stream with the run's `done`.
    shutdownSignal: backend.outlivesProcess ? options.shutdownSignal : neverAborted,
    redact: options.redact,
    finalStatus: async () => {
      if (finished) return record.status;
      const now = ended ? ended.record : await backend.store.get(record.id);
      if (!now) return 'cancelled';
      return (await backend.isInterrupted(now)) ? 'failed' : now.status;
    },
  });
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

/** Waits (a few seconds at most) for the job to record the cancelled run's end. */
async function untilFinished(backend: RunBackend, id: string): Promise<void> {
  const deadline = Date.now() + cancelWaitMs;
  while (Date.now() < deadline) {
    const record = await backend.store.get(id);
    if (!record || finishedStatuses.has(record.status)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { isResumable } from '../../../runs/resume-target.js';
import { finishedStatuses, type RunRecord } from '../../../runs/run-record.js';
import { isInterrupted } from '../../../scale/job-queue.js';
import type { QueueMode } from '../../../scale/open-queue-mode.js';
import { postRun, queuedResumeView, requeueRun } from '../../../scale/queued-runtime.js';
import { readJsonObject } from '../../http/read-json-object.js';
import type { ApiRouteOptions, ServerEnv } from '../../server-env.js';
import { parseResearchRequest, parseResumeRequest } from './research-request.js';
import { streamFollowedEvents } from './run-events-stream.js';
import { interruptedError, runNotFound } from './run-not-found.js';
import { runListItem, runObject } from './run-object.js';
import { afterSeq, runListQuery } from './run-query.js';

/** How long DELETE waits for a running run to end on its worker before answering. */
const cancelWaitMs = 5000;

/**
 * The async run API of an API node in queue mode (docs/scale-out.md), the same routes and
 * answers as createResearchRoutes: POST enqueues the run for a worker; GET, /events and DELETE
 * work on any node (the run is in Postgres, its live events in Redis, a cancel is published to
 * whichever worker holds it). A run whose job is gone from the queue while it reads as running
 * (its worker died and it was not taken over) shows as failed, `run_interrupted`, resumable.
 */
export function createQueuedResearchRoutes(
  options: Omit<ApiRouteOptions, 'models' | 'limiter'> & { shared: QueueMode },
): Hono<ServerEnv> {
  const { runtime, shared } = options;
  const { store, queue } = shared;
  const app = new Hono<ServerEnv>();
  const interrupted = (run: Pick<RunRecord, 'id' | 'status'>) => isInterrupted(queue, run);
  const ownedRecord = async (c: Context<ServerEnv>) => {
    const id = c.req.param('id') ?? '';
    const record = await store.get(id);
    if (!record || record.owner !== c.var.owner) throw runNotFound(id);
    return record;
  };
  const owned = async (c: Context<ServerEnv>) => {
    const record = await ownedRecord(c);
    const lost = await interrupted(record);
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
    const { status } = await postRun(shared, {
      id,
      owner,
      question: request.question,
      mode: request.mode,
      record: { owner, source: 'research', mode: request.mode, options: request.options },
      config: request.config,
      data: {},
    });
    c.var.record.outcome = status;
    return c.json(
      { id, object: 'run', status, mode: request.mode, question: request.question, created_at: createdAt },
      202,
    );
  });
  app.post('/research/:id/resume', async (c) => {
    const { record, lost } = await owned(c);
    const text = await c.req.text();
    const budget = parseResumeRequest(text.trim() ? await readJsonObject(c) : {});
    // Refused here with its reason (400): still running, complete, no checkpoint.
    const { status } = await requeueRun(shared, record, {
      runId: record.id,
      owner: c.var.owner,
      overrides: { budget },
      interrupted: lost,
    });
    const { finished_at: _earlierEnd, ...run } = runObject(record);
    return c.json({ ...run, status }, 202);
  });
  for (const base of ['/research', '/runs']) {
    app.get(`${base}/:id`, async (c) => {
      const { record, shown, lost } = await owned(c);
      const view = await queuedResumeView(shared, record, lost);
      return c.json({
        ...runObject(shown),
        resumable: isResumable({ store: view, runId: record.id, owner: c.var.owner }),
      });
    });
    app.get(`${base}/:id/events`, async (c) => {
      // Whether the queue still holds the run matters only to `done`, asked then.
      const record = await ownedRecord(c);
      const after = afterSeq(c);
      // A run already over has nothing live: its stored events and its status as read (a client
      // replaying it, one coming back after the end) cost no stream read and no second look.
      const over = finishedStatuses.has(record.status);
      // The record the follower read to know the run was over: what `done` reports.
      let ended: { record: RunRecord | undefined } | undefined;
      return streamFollowedEvents(c, {
        follow: (signal) =>
          over
            ? shared.log.read(record.id, after)
            : shared.log.follow(record.id, after, {
                signal,
                storedUpTo: record.lastSeq,
                onEnd: (seen) => {
                  ended = { record: seen };
                },
              }),
        heartbeatMs: options.heartbeatMs ?? 15_000,
        shutdownSignal: options.shutdownSignal,
        finalStatus: async () => {
          if (over) return record.status;
          const now = ended ? ended.record : await store.get(record.id);
          if (!now) return 'cancelled';
          return (await interrupted(now)) ? 'failed' : now.status;
        },
      });
    });
    app.delete(`${base}/:id`, async (c) => {
      const { record, lost } = await owned(c);
      if (!finishedStatuses.has(record.status) && !lost) {
        const outcome = await queue.cancel(record.id);
        if (outcome === 'removed') await store.finish(record.id, { status: 'cancelled' }, record.attempt);
        if (outcome !== 'signalled') await shared.log.end(record.id);
        else await untilFinished(shared, record.id);
        return c.json({ id: record.id, object: 'run', status: 'cancelled' });
      }
      await store.delete(record.id);
      return c.json({ id: record.id, object: 'run', deleted: true });
    });
  }
  app.get('/runs', async (c) => {
    const { runs, hasMore } = await store.list(runListQuery(c));
    const data = await Promise.all(
      runs.map(async (run) => runListItem((await interrupted(run)) ? { ...run, status: 'failed' } : run)),
    );
    return c.json({ object: 'list', data, has_more: hasMore });
  });
  return app;
}

/** Waits (a few seconds at most) for the worker to record the cancelled run's end. */
async function untilFinished(shared: QueueMode, id: string): Promise<void> {
  const deadline = Date.now() + cancelWaitMs;
  while (Date.now() < deadline) {
    const record = await shared.store.get(id);
    if (!record || finishedStatuses.has(record.status)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

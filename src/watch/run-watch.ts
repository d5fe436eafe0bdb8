import { randomUUID } from 'node:crypto';
import type { DeepSearchConfig } from '../config/config-schema.js';
import { plural } from '../events/event-words.js';
import { finishedStatuses, type RunRecord } from '../runs/run-record.js';
import { postRun, type RunBackend } from '../scale/run-backend.js';
import type { CitedAnswer, CompareOptions } from './claims/claim-types.js';
import { compareAnswers, summarizeChanges } from './claims/compare-answers.js';
import { splitClaims } from './claims/split-claims.js';
import { notificationBody, notificationPayload, notifiedChanges } from './notify/notification-body.js';
import type { WatchStore } from './store/watch-store.js';
import type { Watch, WatchRun } from './watch-record.js';

/** What running a watch needs: where its runs go (the deployment's run backend) and where it is kept. */
export interface WatchRunDeps {
  store: WatchStore;
  backend: Pick<RunBackend, 'store' | 'queue' | 'isInterrupted' | 'outlivesProcess'>;
  config: DeepSearchConfig;
  /** Where a run is seen over HTTP (`<server>/v1/runs/<id>`), for the notification; null when unknown. */
  runUrl: (runId: string) => string | null;
  /** What the claim matcher may use beyond the words (embeddings, the LLM as judge). */
  compare?: CompareOptions;
  now?: () => number;
  pollMs?: number;
  signal?: AbortSignal;
}

/**
 * One check of a watch: a run started through the run backend (as POST /v1/runs starts one, so it
 * is kept and listed with its owner), awaited, its answer compared claim by claim with the last
 * successful check's, the check stored and, when something changed (or always, with
 * notify_always), a notification queued in the store. A run that failed is a failed check: it is
 * compared with nothing, and notifies only with notify_always. The caller holds the watch
 * (claimWatch) so no two checks of it run at once. `startedAt` is when the check began (the
 * caller's claim, from which the next run is set), else now.
 */
export async function runWatch(
  watch: Watch,
  deps: WatchRunDeps,
  startedAt: number = (deps.now ?? Date.now)(),
): Promise<WatchRun> {
  const now = deps.now ?? Date.now;
  const runId = `run_${randomUUID()}`;
  const outcome = await startAndWait(watch, runId, deps).catch((error: unknown) => {
    // Stopped (the process stopping): nothing to record; the watch stays due and runs again.
    if (deps.signal?.aborted) throw error;
    return { error: error instanceof Error ? error.message : String(error), started: false };
  });
  const base = { id: `wrun_${randomUUID()}`, watchId: watch.id, startedAt };
  let run: WatchRun;
  if ('answer' in outcome) {
    const previous = await deps.store.lastOkRun(watch.id);
    const changes = previous?.answer
      ? await compareAnswers(previous.answer, outcome.answer, deps.compare)
      : [];
    const summary = previous?.answer
      ? summarizeChanges(changes)
      : `first check: ${plural(splitClaims(outcome.answer).length, 'claim')} kept as the baseline`;
    run = {
      ...base,
      runId,
      status: 'ok',
      finishedAt: now(),
      changes,
      summary,
      error: null,
      answer: outcome.answer,
    };
  } else {
    run = {
      ...base,
      runId: outcome.started ? runId : null,
      status: 'failed',
      finishedAt: now(),
      changes: [],
      summary: `check failed: ${outcome.error}`,
      error: outcome.error,
      answer: null,
    };
  }
  // A watch removed while its run went on keeps nothing of it.
  if (!(await deps.store.get(watch.id))) return run;
  await deps.store.addRun(run);
  await queueNotification(watch, run, deps);
  return run;
}

type RunOutcome = { answer: CitedAnswer } | { error: string; started: boolean };

async function startAndWait(watch: Watch, runId: string, deps: WatchRunDeps): Promise<RunOutcome> {
  await postRun(deps.backend, {
    id: runId,
    owner: watch.owner,
    question: watch.question,
    mode: watch.mode,
    record: { owner: watch.owner, source: 'watch', mode: watch.mode, options: { watch: watch.id } },
    config: deps.config,
    data: {},
  });
  const record = await waitForRun(runId, deps);
  if (record === undefined) return { error: 'the run was deleted before it ended', started: true };
  if (record.status !== 'completed')
    return { error: record.error?.message ?? `the run ended ${record.status}`, started: true };
  const answer = citedAnswerOf(record);
  if (!answer) return { error: 'the run ended without an answer', started: true };
  return { answer };
}

/** Polls the shared store: the run may be run by this process or, in queue mode, by any worker. */
async function waitForRun(runId: string, deps: WatchRunDeps): Promise<RunRecord | undefined> {
  const pollMs = deps.pollMs ?? 250;
  for (;;) {
    deps.signal?.throwIfAborted();
    const record = await deps.backend.store.get(runId);
    if (!record || finishedStatuses.has(record.status)) return record;
    // On one machine a run nobody holds any more (its process gone) never ends by itself.
    if (!deps.backend.outlivesProcess && (await deps.backend.isInterrupted(record)))
      return { ...record, status: 'failed', error: { message: 'the run was interrupted' } } as RunRecord;
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, pollMs);
      deps.signal?.addEventListener('abort', () => resolve(clearTimeout(timer)), { once: true });
    });
  }
}

/** A run's answer as the matcher takes it: a deep search's answer, or a research report's markdown. */
export function citedAnswerOf(record: Pick<RunRecord, 'result'>): CitedAnswer | undefined {
  const result = record.result;
  if (!result) return undefined;
  const references = Array.isArray(result.references) ? (result.references as CitedAnswer['references']) : [];
  if (typeof result.answer === 'string') return { answer: result.answer, references };
  if (typeof result.markdown === 'string') return { answer: result.markdown, references };
  return undefined;
}

async function queueNotification(watch: Watch, run: WatchRun, deps: WatchRunDeps): Promise<void> {
  if (!watch.notify) return;
  const changed = run.status === 'ok' && notifiedChanges(run.changes).length > 0;
  if (!changed && !watch.notifyAlways) return;
  const payload = notificationPayload({ watch, run, runUrl: run.runId ? deps.runUrl(run.runId) : null });
  await deps.store.addNotification({
    id: `wnot_${randomUUID()}`,
    watchId: watch.id,
    watchRunId: run.id,
    url: watch.notify.url,
    secret: watch.notify.secret ?? null,
    format: watch.notify.format,
    body: notificationBody(payload, watch.notify.format),
    attempts: 0,
    nextAttemptAt: (deps.now ?? Date.now)(),
    lastError: null,
  });
}

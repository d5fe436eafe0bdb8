import type { WatchChangeObject, WatchObject, WatchRunObject } from '../events/watch-api.js';
import type { ClaimChange } from './claims/claim-types.js';
import type { Watch, WatchRun } from './watch-record.js';

/** A watch as the API, the CLI's --json and the MCP tool show it: snake_case, never the webhook's secret. */
export function watchObject(watch: Watch): WatchObject {
  return {
    id: watch.id,
    object: 'watch',
    name: watch.name,
    question: watch.question,
    mode: watch.mode,
    ...('every' in watch.schedule ? { every: watch.schedule.every } : { cron: watch.schedule.cron }),
    notify: watch.notify
      ? { url: watch.notify.url, format: watch.notify.format, signed: watch.notify.secret !== undefined }
      : null,
    notify_always: watch.notifyAlways,
    paused: watch.paused,
    created_at: watch.createdAt,
    next_run_at: watch.paused ? null : watch.nextRunAt,
    last_run_at: watch.lastRunAt,
  };
}

/** One check: its run, status, summary and changes (unchanged claims left out), each with its sources. */
export function watchRunObject(run: WatchRun): WatchRunObject {
  return {
    id: run.id,
    object: 'watch.run',
    run_id: run.runId,
    status: run.status,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    summary: run.summary,
    error: run.error,
    changes: run.changes.filter((change) => change.kind !== 'unchanged').map(changeObject),
  };
}

function changeObject(change: ClaimChange): WatchChangeObject {
  const kind = change.kind === 'unchanged' ? 'changed' : change.kind;
  return {
    kind,
    ...(change.before ? { before: change.before } : {}),
    ...(change.after ? { after: change.after } : {}),
    ...(change.differences ? { differences: change.differences } : {}),
  };
}

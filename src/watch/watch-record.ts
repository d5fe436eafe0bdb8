import type { CitedAnswer, ClaimChange } from './claims/claim-types.js';

export type WatchMode = 'search' | 'research';

/** When a watch runs: every fixed duration (`6h`, kept as written and in ms) or on a cron pattern. */
export type WatchSchedule = { every: string; everyMs: number } | { cron: string };

export type NotifyFormat = 'json' | 'slack';

/** Where a watch's changes are posted. The secret signs the body; it is never shown back. */
export interface WatchNotify {
  url: string;
  secret?: string;
  format: NotifyFormat;
}

/** What a watch is made with. Times are epoch milliseconds. */
export interface NewWatch {
  id: string;
  /** As a run's: `local` for the CLI and a server without keys; `key:<sha256>` for an API key. */
  owner: string;
  name: string;
  question: string;
  mode: WatchMode;
  schedule: WatchSchedule;
  notify: WatchNotify | null;
  notifyAlways: boolean;
  createdAt: number;
  nextRunAt: number;
}

export interface Watch extends NewWatch {
  paused: boolean;
  lastRunAt: number | null;
}

/** What may change of a watch (PATCH, pause, resume). */
export interface WatchPatch {
  name?: string;
  paused?: boolean;
  schedule?: WatchSchedule;
  notify?: WatchNotify | null;
  notifyAlways?: boolean;
  nextRunAt?: number;
}

/** One check of a watch: its run, and what changed since the last successful one. */
export interface WatchRun {
  id: string;
  watchId: string;
  /** The run it started (listed in `runs list`); null when it could not even be started. */
  runId: string | null;
  status: 'ok' | 'failed';
  startedAt: number;
  finishedAt: number;
  /** The changes against the previous successful run (empty for the first, the baseline). */
  changes: ClaimChange[];
  summary: string;
  /** What a failed check failed with. */
  error: string | null;
  /** The answer compared (ok runs): the next check compares with it, whatever the run store pruned. */
  answer: CitedAnswer | null;
}

/** A webhook post waiting to be sent (or sent again): kept in the store, so a restart loses none. */
export interface PendingNotification {
  id: string;
  watchId: string;
  watchRunId: string;
  url: string;
  secret: string | null;
  format: NotifyFormat;
  body: string;
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
}

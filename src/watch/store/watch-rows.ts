import type { PendingNotification, Watch, WatchRun } from '../watch-record.js';

/**
 * The watch tables as both stores hold them (SQLite and Postgres alike: JSON as text, flags and
 * times as integers), and their rows read back into records.
 */
export const watchTablesSql = `
CREATE TABLE IF NOT EXISTS watches (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  name TEXT NOT NULL,
  question TEXT NOT NULL,
  mode TEXT NOT NULL,
  schedule TEXT NOT NULL,
  notify TEXT,
  notify_always INTEGER NOT NULL DEFAULT 0,
  paused INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  next_run_at BIGINT NOT NULL,
  last_run_at BIGINT,
  lease_until BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS watches_owner ON watches (owner, created_at);
CREATE INDEX IF NOT EXISTS watches_next_run ON watches (next_run_at);
CREATE TABLE IF NOT EXISTS watch_runs (
  id TEXT PRIMARY KEY,
  watch_id TEXT NOT NULL,
  run_id TEXT,
  status TEXT NOT NULL,
  started_at BIGINT NOT NULL,
  finished_at BIGINT NOT NULL,
  changes TEXT NOT NULL,
  summary TEXT NOT NULL,
  error TEXT,
  answer TEXT
);
CREATE INDEX IF NOT EXISTS watch_runs_watch ON watch_runs (watch_id, started_at);
CREATE TABLE IF NOT EXISTS watch_notifications (
  id TEXT PRIMARY KEY,
  watch_id TEXT NOT NULL,
  watch_run_id TEXT NOT NULL,
  url TEXT NOT NULL,
  secret TEXT,
  format TEXT NOT NULL,
  body TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  last_error TEXT
);
CREATE INDEX IF NOT EXISTS watch_notifications_due ON watch_notifications (next_attempt_at);`;

export type Row = Record<string, unknown>;

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));
const json = <T>(value: unknown): T => JSON.parse(String(value)) as T;

export function watchFromRow(row: Row): Watch {
  return {
    id: String(row.id),
    owner: String(row.owner),
    name: String(row.name),
    question: String(row.question),
    mode: row.mode === 'research' ? 'research' : 'search',
    schedule: json(row.schedule),
    notify: row.notify === null || row.notify === undefined ? null : json(row.notify),
    notifyAlways: Number(row.notify_always) === 1,
    paused: Number(row.paused) === 1,
    createdAt: Number(row.created_at),
    nextRunAt: Number(row.next_run_at),
    lastRunAt: numberOrNull(row.last_run_at),
  };
}

export function watchRunFromRow(row: Row): WatchRun {
  return {
    id: String(row.id),
    watchId: String(row.watch_id),
    runId: row.run_id === null || row.run_id === undefined ? null : String(row.run_id),
    status: row.status === 'ok' ? 'ok' : 'failed',
    startedAt: Number(row.started_at),
    finishedAt: Number(row.finished_at),
    changes: json(row.changes),
    summary: String(row.summary),
    error: row.error === null || row.error === undefined ? null : String(row.error),
    answer: row.answer === null || row.answer === undefined ? null : json(row.answer),
  };
}

export function notificationFromRow(row: Row): PendingNotification {
  return {
    id: String(row.id),
    watchId: String(row.watch_id),
    watchRunId: String(row.watch_run_id),
    url: String(row.url),
    secret: row.secret === null || row.secret === undefined ? null : String(row.secret),
    format: row.format === 'slack' ? 'slack' : 'json',
    body: String(row.body),
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    lastError: row.last_error === null || row.last_error === undefined ? null : String(row.last_error),
  };
}

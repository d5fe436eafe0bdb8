import type { WatchPatch } from '../watch-record.js';
import { notificationFromRow, type Row, watchFromRow, watchRunFromRow } from './watch-rows.js';
import type { WatchStore } from './watch-store.js';

/** What the watch store needs of a database: `?` placeholders, rows out, rows changed. */
export interface SqlRunner {
  all(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  close(): Promise<void>;
}

const flag = (value: boolean) => (value ? 1 : 0);

/** The watch store over either database: the SQL is the same, only the runner differs. */
export function createSqlWatchStore(db: SqlRunner): WatchStore {
  const one = async (sql: string, params: readonly unknown[]) => (await db.all(sql, params))[0];
  return {
    async create(watch) {
      await db.run(
        `INSERT INTO watches (id, owner, name, question, mode, schedule, notify, notify_always, paused,
           created_at, next_run_at, last_run_at, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, NULL, 0)`,
        [
          watch.id,
          watch.owner,
          watch.name,
          watch.question,
          watch.mode,
          JSON.stringify(watch.schedule),
          watch.notify ? JSON.stringify(watch.notify) : null,
          flag(watch.notifyAlways),
          watch.createdAt,
          watch.nextRunAt,
        ],
      );
      return { ...watch, paused: false, lastRunAt: null };
    },
    async get(id, owner) {
      const row = await one('SELECT * FROM watches WHERE id = ?', [id]);
      if (!row) return undefined;
      const watch = watchFromRow(row);
      return owner === undefined || watch.owner === owner ? watch : undefined;
    },
    async list(owner) {
      const rows =
        owner === undefined
          ? await db.all('SELECT * FROM watches ORDER BY created_at, id')
          : await db.all('SELECT * FROM watches WHERE owner = ? ORDER BY created_at, id', [owner]);
      return rows.map(watchFromRow);
    },
    async update(id, patch) {
      const { sets, params } = patchColumns(patch);
      if (sets.length > 0)
        await db.run(`UPDATE watches SET ${sets.join(', ')} WHERE id = ?`, [...params, id]);
      return this.get(id);
    },
    async delete(id) {
      await db.run('DELETE FROM watch_notifications WHERE watch_id = ?', [id]);
      await db.run('DELETE FROM watch_runs WHERE watch_id = ?', [id]);
      return (await db.run('DELETE FROM watches WHERE id = ?', [id])) > 0;
    },
    async due(now, limit) {
      const rows = await db.all(
        'SELECT * FROM watches WHERE paused = 0 AND next_run_at <= ? ORDER BY next_run_at, id LIMIT ?',
        [now, limit],
      );
      return rows.map(watchFromRow);
    },
    async claim(id, now, leaseMs, options = {}) {
      const due = options.scheduled ? ' AND paused = 0 AND next_run_at <= ?' : '';
      const changed = await db.run(
        `UPDATE watches SET lease_until = ? WHERE id = ? AND lease_until <= ?${due}`,
        [now + leaseMs, id, now, ...(options.scheduled ? [now] : [])],
      );
      return changed > 0;
    },
    async renew(id, now, until) {
      return (
        (await db.run('UPDATE watches SET lease_until = ? WHERE id = ? AND lease_until > ?', [
          until,
          id,
          now,
        ])) > 0
      );
    },
    async release(id, { lastRunAt, nextRunAt }) {
      await db.run('UPDATE watches SET lease_until = 0, last_run_at = ?, next_run_at = ? WHERE id = ?', [
        lastRunAt,
        nextRunAt,
        id,
      ]);
    },
    async addRun(run) {
      await db.run(
        `INSERT INTO watch_runs (id, watch_id, run_id, status, started_at, finished_at, changes, summary, error, answer)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          run.id,
          run.watchId,
          run.runId,
          run.status,
          run.startedAt,
          run.finishedAt,
          JSON.stringify(run.changes),
          run.summary,
          run.error,
          run.answer ? JSON.stringify(run.answer) : null,
        ],
      );
    },
    async runs(watchId, limit) {
      const rows = await db.all(
        'SELECT * FROM watch_runs WHERE watch_id = ? ORDER BY started_at DESC, id DESC LIMIT ?',
        [watchId, limit],
      );
      return rows.map(watchRunFromRow);
    },
    async lastOkRun(watchId) {
      const row = await one(
        "SELECT * FROM watch_runs WHERE watch_id = ? AND status = 'ok' ORDER BY started_at DESC, id DESC LIMIT 1",
        [watchId],
      );
      return row ? watchRunFromRow(row) : undefined;
    },
    async addNotification(n) {
      await db.run(
        `INSERT INTO watch_notifications (id, watch_id, watch_run_id, url, secret, format, body, attempts, next_attempt_at, last_error)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          n.id,
          n.watchId,
          n.watchRunId,
          n.url,
          n.secret,
          n.format,
          n.body,
          n.attempts,
          n.nextAttemptAt,
          n.lastError,
        ],
      );
    },
    async dueNotifications(now, limit) {
      const rows = await db.all(
        'SELECT * FROM watch_notifications WHERE next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?',
        [now, limit],
      );
      return rows.map(notificationFromRow);
    },
    async claimNotification(id, now, leaseMs) {
      const changed = await db.run(
        'UPDATE watch_notifications SET next_attempt_at = ? WHERE id = ? AND next_attempt_at <= ?',
        [now + leaseMs, id, now],
      );
      return changed > 0;
    },
    async dropNotification(id) {
      await db.run('DELETE FROM watch_notifications WHERE id = ?', [id]);
    },
    async retryNotification(id, { attempts, nextAttemptAt, error }) {
      await db.run(
        'UPDATE watch_notifications SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?',
        [attempts, nextAttemptAt, error, id],
      );
    },
    close: () => db.close(),
  };
}

function patchColumns(patch: WatchPatch): { sets: string[]; params: unknown[] } {
  const sets: string[] = [];
  const params: unknown[] = [];
  const set = (column: string, value: unknown) => {
    sets.push(`${column} = ?`);
    params.push(value);
  };
  if (patch.name !== undefined) set('name', patch.name);
  if (patch.paused !== undefined) set('paused', flag(patch.paused));
  if (patch.schedule !== undefined) set('schedule', JSON.stringify(patch.schedule));
  if (patch.notify !== undefined) set('notify', patch.notify ? JSON.stringify(patch.notify) : null);
  if (patch.notifyAlways !== undefined) set('notify_always', flag(patch.notifyAlways));
  if (patch.nextRunAt !== undefined) set('next_run_at', patch.nextRunAt);
  return { sets, params };
}

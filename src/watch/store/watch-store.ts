import type { NewWatch, PendingNotification, Watch, WatchPatch, WatchRun } from '../watch-record.js';

/**
 * Where watches, their runs and their pending notifications are kept: beside the runs (the SQLite
 * run file on one machine, sqlite-watch-store.ts; Postgres in queue mode, postgres-watch-store.ts).
 */
export interface WatchStore {
  create(watch: NewWatch): Promise<Watch>;
  /** The watch, when it exists and (with `owner`) belongs to that owner. */
  get(id: string, owner?: string): Promise<Watch | undefined>;
  /** Oldest first; with `owner`, only that owner's. */
  list(owner?: string): Promise<Watch[]>;
  update(id: string, patch: WatchPatch): Promise<Watch | undefined>;
  /** The watch, its runs and its pending notifications. */
  delete(id: string): Promise<boolean>;
  /** Watches not paused whose next run is due at `now`, oldest due first. */
  due(now: number, limit: number): Promise<Watch[]>;
  /**
   * Takes the watch to run it, until `now + leaseMs`: false when another process (or this one)
   * holds it. Never two runs of one watch at once, whoever starts them. `scheduled`: only while
   * its next run is due, so a tick another process already ran (and released) is not run again.
   */
  claim(id: string, now: number, leaseMs: number, options?: { scheduled?: boolean }): Promise<boolean>;
  /** Holds the watch on until `until` while its check goes on; false when it is no longer held. */
  renew(id: string, now: number, until: number): Promise<boolean>;
  /** Lets the watch go after a run: when it ran, when it runs next. */
  release(id: string, times: { lastRunAt: number | null; nextRunAt: number }): Promise<void>;
  addRun(run: WatchRun): Promise<void>;
  /** Newest first. */
  runs(watchId: string, limit: number): Promise<WatchRun[]>;
  /** The newest run that succeeded: what the next one is compared with. */
  lastOkRun(watchId: string): Promise<WatchRun | undefined>;
  addNotification(notification: PendingNotification): Promise<void>;
  /** Notifications whose next attempt is due at `now`. */
  dueNotifications(now: number, limit: number): Promise<PendingNotification[]>;
  /**
   * Takes a due notification to send it: its next attempt moves to `now + leaseMs`, so another
   * process sends it only if this one died; false when it was taken (or is gone).
   */
  claimNotification(id: string, now: number, leaseMs: number): Promise<boolean>;
  /** Sent (or given up on): gone from the store. */
  dropNotification(id: string): Promise<void>;
  /** Failed: tried again at `nextAttemptAt`. */
  retryNotification(
    id: string,
    update: { attempts: number; nextAttemptAt: number; error: string },
  ): Promise<void>;
  close(): Promise<void>;
}

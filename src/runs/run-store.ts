import type BetterSqlite3 from 'better-sqlite3';
import type { StoredCheckpoint, StoredRestore } from '../agent/run-checkpoint.js';
import type { StoredPage } from '../agent/state/page-store.js';
import type { RunsConfig } from '../config/config-schema.js';
import type { AgentEvent } from '../events/agent-events.js';
import type { SqliteDriverLoader } from '../platform/storage/sqlite-cache.js';
import { createStatementCache } from '../platform/storage/statement-cache.js';
import { eventJson } from './event-json.js';
import type { NewRun, RunError, RunRecord, RunStatus, RunSummary, RunUsage } from './run-record.js';
import { finishColumns, json, type Row, toRecord, toSummary } from './run-store-rows.js';
import { openRunDatabase } from './run-store-schema.js';
import { fromSnapshotRow, type SourceSnapshot, toSnapshotRow } from './source-snapshot.js';
import { RunClaimError, type RunClaimer, StaleAttemptError } from './stale-attempt-error.js';

export interface RunStoreOptions {
  /** The database file; ':memory:' for tests and a server without a data directory. */
  file: string;
  retention: RunsConfig['retention'];
  now?: () => number;
  loadDriver?: SqliteDriverLoader;
}

export interface RunListQuery {
  owner?: string;
  limit: number;
  /** Text searched in the question and the answer. */
  q?: string;
  /** Only runs created before this time (epoch ms): the next page. */
  before?: number;
  /** Leave out the runs of `deepsearch eval` (one per question: they would bury the rest). */
  withoutEvaluations?: boolean;
}

export interface RunFinish {
  status: RunStatus;
  result?: Record<string, unknown> & { answer?: unknown };
  error?: RunError;
  usage?: RunUsage;
  /** What was read of the sources the result cites (replaces any kept before: a resumed run's). */
  sources?: readonly SourceSnapshot[];
}

/**
 * Every run kept: its record, events in order, last checkpoint. A write given an `attempt` is
 * fenced: it fails with StaleAttemptError, writing nothing, unless that attempt still holds the run
 * (see claim). Without one, writes are not checked (one process, as the CLI runs).
 */
export interface RunStore {
  /** Creates the run, or (a resumed or dequeued run) marks it running again. */
  begin(run: NewRun, status: 'queued' | 'running', pid?: number): void;
  /**
   * Takes a queued or running run for a new attempt (a worker starting it, or taking it over):
   * attempt + 1, status running; returns the attempt. RunClaimError when it is gone or ended.
   */
  claim(runId: string, claimer: RunClaimer): number;
  /** Appends events (one transaction); their seq must be new. */
  append(runId: string, events: readonly AgentEvent[], attempt?: number): void;
  /**
   * Replaces the run's checkpoint (a deep search's or a research task's; new pages are written
   * once) and its usage so far: a resumed run counts from there, as its budget does. A store that
   * writes elsewhere (a worker's, to Postgres) returns a promise that settles once it is stored:
   * the run awaits it before its next step. `events` (the step's last ones) are appended in the
   * same write, before it: one transaction per step, not two.
   */
  checkpoint(
    runId: string,
    checkpoint: StoredCheckpoint,
    usage: RunUsage,
    attempt?: number,
    events?: readonly AgentEvent[],
  ): void | Promise<void>;
  finish(runId: string, outcome: RunFinish, attempt?: number): void;
  /**
   * Makes the writes `write` makes in one transaction (one commit for all: a server writing its
   * run threads' recordings writes a turn's at once). A write inside that fails is undone alone
   * and throws as it would outside; if the commit fails, none is kept and `batch` throws.
   */
  batch<T>(write: () => T): T;
  get(id: string): RunRecord | undefined;
  /** The id a unique prefix stands for (`runs show 3f2a`). */
  resolveId(prefix: string, owner?: string): string | undefined;
  events(runId: string, afterSeq?: number): AgentEvent[];
  /** The last checkpoint as it was given (its kind says whose it is) and the last event's seq. */
  restore(runId: string): StoredRestore | undefined;
  /** The last checkpoint's format version and kind, without loading it or its pages. */
  checkpointHead(runId: string): { $schemaVersion: unknown; kind: unknown } | undefined;
  /** The snapshots of the sources the run cites, in the order first cited (none: an older run). */
  sources(runId: string): SourceSnapshot[];
  list(query: RunListQuery): { runs: RunSummary[]; hasMore: boolean };
  delete(id: string): boolean;
  /** Applies the retention limits; returns how many runs were deleted. */
  prune(): number;
  close(): void;
}

/** The run store `runs` names (its file, its retention), or none when runs are off or have no file. */
export function createConfiguredRunStore(
  runs: RunsConfig,
  loadDriver?: SqliteDriverLoader,
): RunStore | undefined {
  if (!runs.enabled || !runs.file) return undefined;
  return createRunStore({ file: runs.file, retention: runs.retention, loadDriver });
}

/** The run store in SQLite. The file opens on first use; retention is applied then and after each run. */
export function createRunStore(options: RunStoreOptions): RunStore {
  const now = options.now ?? Date.now;
  let database: RunDatabase | undefined;
  const db = () => {
    if (!database) {
      database = withStatementCache(openRunDatabase(options));
      pruneRuns(database, options.retention, now());
    }
    return database;
  };
  // The pages each unfinished run of this process has stored (its checkpoints name them by URL).
  const storedPages = new Map<string, Set<string>>();
  const deleteRun = (id: string) => {
    storedPages.delete(id);
    const d = db();
    for (const table of runTables) d.prepare(`DELETE FROM ${table} WHERE run_id = ?`).run(id);
    return d.prepare('DELETE FROM runs WHERE id = ?').run(id).changes > 0;
  };
  // Inside a write's transaction: SQLite has one writer at a time, so no claim can come between.
  const fence = (runId: string, attempt: number | undefined) => {
    if (attempt === undefined) return;
    const row = db().prepare('SELECT attempt FROM runs WHERE id = ?').get(runId) as Row | undefined;
    const current = row ? Number(row.attempt) : undefined;
    if (current !== attempt) throw new StaleAttemptError({ runId, attempt, current });
  };
  return {
    begin(run, status, pid) {
      db()
        .prepare(
          `INSERT INTO runs (id, owner, source, mode, question, options, settings, status, created_at, started_at, pid)
           VALUES (@id, @owner, @source, @mode, @question, @options, @settings, @status, @now, @started, @pid)
           ON CONFLICT (id) DO UPDATE SET status = @status, started_at = coalesce(@started, started_at),
             pid = @pid, finished_at = NULL, error = NULL, settings = @settings`,
        )
        .run({
          ...run,
          options: JSON.stringify(run.options),
          settings: JSON.stringify(run.settings),
          status,
          now: now(),
          started: status === 'running' ? now() : null,
          pid: pid ?? null,
        });
    },
    claim(runId, claimer) {
      const d = db();
      return d
        .transaction(() => {
          const row = d.prepare('SELECT status FROM runs WHERE id = ?').get(runId) as Row | undefined;
          if (!row) throw new RunClaimError({ runId, code: 'run_not_found' });
          if (row.status !== 'queued' && row.status !== 'running')
            throw new RunClaimError({ runId, code: 'run_finished', status: String(row.status) });
          const claimed = d
            .prepare(
              `UPDATE runs SET attempt = attempt + 1, worker = ?, pid = ?, status = 'running',
               started_at = coalesce(started_at, ?) WHERE id = ? RETURNING attempt`,
            )
            .get(claimer.workerId, claimer.pid ?? null, now(), runId) as Row;
          return Number(claimed.attempt);
        })
        .immediate();
    },
    append(runId, events, attempt) {
      if (events.length === 0) return;
      const d = db();
      d.transaction(() => {
        fence(runId, attempt);
        insertEvents(d, runId, events);
      })();
    },
    checkpoint(runId, checkpoint, usage, attempt, events = []) {
      const d = db();
      const insertPage = d.prepare('INSERT OR IGNORE INTO run_pages (run_id, url, page) VALUES (?, ?, ?)');
      const pages = checkpoint.state.pages.map(({ keys, page }) => ({ keys, url: page.url }));
      const state = { ...checkpoint, state: { ...checkpoint.state, pages } };
      // A page is stored once per run: the checkpoints after name it by URL, and re-serialising
      // every page read at every step cost a long run more than its own steps.
      const stored = storedPages.get(runId) ?? new Set<string>();
      storedPages.set(runId, stored);
      const fresh = checkpoint.state.pages.filter(({ page }) => !stored.has(page.url));
      d.transaction(() => {
        fence(runId, attempt);
        if (events.length > 0) insertEvents(d, runId, events);
        for (const { page } of fresh) insertPage.run(runId, page.url, JSON.stringify(page));
        d.prepare('INSERT OR REPLACE INTO run_checkpoints (run_id, step, at, state) VALUES (?, ?, ?, ?)').run(
          runId,
          checkpoint.step,
          now(),
          JSON.stringify(state),
        );
        d.prepare('UPDATE runs SET usage = ?, total_tokens = ? WHERE id = ?').run(
          JSON.stringify(usage),
          usage.totalTokens,
          runId,
        );
      })();
      for (const { page } of fresh) stored.add(page.url);
    },
    finish(runId, outcome, attempt) {
      const d = db();
      const update = d.prepare(
        `UPDATE runs SET status = ?, finished_at = ?, pid = NULL, worker = NULL, result = coalesce(?, result),
           answer = coalesce(?, answer), error = ?, usage = coalesce(?, usage), total_tokens = coalesce(?, total_tokens)
         WHERE id = ?`,
      );
      d.transaction(() => {
        fence(runId, attempt);
        update.run(...finishColumns(outcome, now()), runId);
        if (outcome.sources) writeSources(d, runId, outcome.sources);
      })();
      storedPages.delete(runId);
      pruneRuns(d, options.retention, now());
    },
    batch(write) {
      return db().transaction(write)();
    },
    get(id) {
      const row = db()
        .prepare(
          'SELECT runs.*, run_checkpoints.step AS checkpoint_step FROM runs LEFT JOIN run_checkpoints ON run_id = id WHERE id = ?',
        )
        .get(id) as Row | undefined;
      return row ? toRecord(row) : undefined;
    },
    resolveId(prefix, owner) {
      const rows = db()
        .prepare(
          `SELECT id FROM runs WHERE substr(id, 1, length(?)) = ? ${owner ? 'AND owner = ?' : ''} LIMIT 2`,
        )
        .all(...[prefix, prefix, ...(owner ? [owner] : [])]) as Array<{ id: string }>;
      return rows.length === 1 ? rows[0]!.id : undefined;
    },
    events(runId, afterSeq = 0) {
      const rows = db()
        .prepare('SELECT data FROM run_events WHERE run_id = ? AND seq > ? ORDER BY seq')
        .all(runId, afterSeq) as Array<{ data: string }>;
      return rows.map((row) => JSON.parse(row.data) as AgentEvent);
    },
    checkpointHead(runId) {
      const row = db()
        .prepare(
          `SELECT json_extract(state, '$."$schemaVersion"') AS version, json_extract(state, '$.kind') AS kind
           FROM run_checkpoints WHERE run_id = ?`,
        )
        .get(runId) as Row | undefined;
      return row ? { $schemaVersion: row.version, kind: row.kind ?? undefined } : undefined;
    },
    restore(runId) {
      const d = db();
      const row = d.prepare('SELECT state FROM run_checkpoints WHERE run_id = ?').get(runId) as
        | Row
        | undefined;
      const run = d.prepare('SELECT last_seq FROM runs WHERE id = ?').get(runId) as Row | undefined;
      if (!row || !run) return undefined;
      const saved = json<StoredCheckpoint>(row.state)!;
      const page = d.prepare('SELECT page FROM run_pages WHERE run_id = ? AND url = ?');
      const savedPages = saved.state.pages as unknown as Array<{ keys: string[]; url: string }>;
      const pages = savedPages.map(({ keys, url }) => ({
        keys,
        page: json<StoredPage>((page.get(runId, url) as Row).page)!,
      }));
      return { checkpoint: { ...saved, state: { ...saved.state, pages } }, lastSeq: Number(run.last_seq) };
    },
    sources(runId) {
      const rows = db()
        .prepare('SELECT * FROM run_sources WHERE run_id = ? ORDER BY position')
        .all(runId) as Row[];
      return rows.map(fromSnapshotRow);
    },
    list(query) {
      const where: string[] = [];
      const values: unknown[] = [];
      if (query.owner !== undefined) where.push('owner = ?') && values.push(query.owner);
      if (query.before !== undefined) where.push('created_at < ?') && values.push(query.before);
      if (query.q) {
        const pattern = `%${query.q.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
        where.push("(question LIKE ? ESCAPE '\\' OR answer LIKE ? ESCAPE '\\')");
        values.push(pattern, pattern);
      }
      if (query.withoutEvaluations) where.push(`NOT ${isEvaluation}`);
      const rows = db()
        .prepare(
          `SELECT id, owner, source, status, mode, question, created_at, finished_at, pid, substr(answer, 1, 200) AS preview,
             total_tokens, usage, ${isEvaluation} AS evaluation FROM runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
             ORDER BY created_at DESC, rowid DESC LIMIT ?`,
        )
        .all(...values, query.limit + 1) as Row[];
      return { runs: rows.slice(0, query.limit).map(toSummary), hasMore: rows.length > query.limit };
    },
    delete: (id) => db().transaction(deleteRun)(id),
    prune: () => pruneRuns(db(), options.retention, now()),
    close() {
      database?.close();
      database = undefined;
    },
  };
}

/** Inside a write's transaction: a batch of a run's events, and the run's last seq. */
function insertEvents(database: RunDatabase, runId: string, events: readonly AgentEvent[]): void {
  const insert = database.prepare(
    'INSERT OR IGNORE INTO run_events (run_id, seq, type, at, data) VALUES (?, ?, ?, ?, ?)',
  );
  for (const event of events) insert.run(runId, event.seq, event.type, event.at, eventJson(event));
  database.prepare('UPDATE runs SET last_seq = max(last_seq, ?) WHERE id = ?').run(events.at(-1)!.seq, runId);
}

/** The tables whose rows belong to a run (deleted with it). */
const runTables = ['run_events', 'run_checkpoints', 'run_pages', 'run_sources'] as const;

function writeSources(database: RunDatabase, runId: string, sources: readonly SourceSnapshot[]): void {
  database.prepare('DELETE FROM run_sources WHERE run_id = ?').run(runId);
  const insert = database.prepare(
    `INSERT INTO run_sources (run_id, position, url, title, fetched_at, status, hash, meta, body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  sources.forEach((source, position) => {
    const row = toSnapshotRow(source);
    insert.run(runId, position, row.url, row.title, row.fetched_at, row.status, row.hash, row.meta, row.body);
  });
}

type RunDatabase = Pick<BetterSqlite3.Database, 'prepare' | 'transaction' | 'close'>;

/**
 * The database with each statement compiled once: a server's jobs run the same few statements at
 * every step of every run, and compiling one each time was a good part of what the store cost.
 */
function withStatementCache(database: BetterSqlite3.Database): RunDatabase {
  return {
    prepare: createStatementCache(database) as BetterSqlite3.Database['prepare'],
    transaction: database.transaction.bind(database),
    close: database.close.bind(database),
  };
}

/** Deletes runs older than maxAgeDays, then the oldest finished runs beyond maxRuns. */
function pruneRuns(database: RunDatabase, retention: RunsConfig['retention'], now: number): number {
  const cutoff = now - retention.maxAgeDays * 86_400_000;
  const old = database.prepare('SELECT id FROM runs WHERE created_at < ?').all(cutoff) as Array<{
    id: string;
  }>;
  const extra = database
    .prepare(
      `SELECT id FROM runs WHERE status IN ('completed', 'failed', 'cancelled')
       ORDER BY created_at DESC, rowid DESC LIMIT -1 OFFSET ?`,
    )
    .all(retention.maxRuns) as Array<{ id: string }>;
  const ids = [...new Set([...old, ...extra].map((row) => row.id))];
  if (ids.length === 0) return 0;
  database.transaction(() => {
    for (const id of ids)
      for (const table of [...runTables, 'runs'])
        database.prepare(`DELETE FROM ${table} WHERE ${table === 'runs' ? 'id' : 'run_id'} = ?`).run(id);
  })();
  return ids.length;
}

/** A run of `deepsearch eval`: its options name the question it answered (evaluate-question.ts). */
const isEvaluation = "(json_extract(options, '$.eval') IS NOT NULL)";

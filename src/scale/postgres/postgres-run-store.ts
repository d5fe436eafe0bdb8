import type { StoredCheckpoint } from '../../agent/run-checkpoint.js';
import type { StoredPage } from '../../agent/state/page-store.js';
import type { RunsConfig } from '../../config/config-schema.js';
import type { AgentEvent } from '../../events/agent-events.js';
import { eventJson } from '../../runs/event-json.js';
import { finishColumns, json, type Row, toRecord, toSummary } from '../../runs/run-store-rows.js';
import { fromSnapshotRow, type SourceSnapshot, toSnapshotRow } from '../../runs/source-snapshot.js';
import { RunClaimError, StaleAttemptError } from '../../runs/stale-attempt-error.js';
import type { AsyncRunStore } from '../async-run-store.js';
import type { PostgresDatabase } from './postgres-database.js';

export interface PostgresRunStoreOptions {
  database: PostgresDatabase;
  retention: RunsConfig['retention'];
  now?: () => number;
  /**
   * Retention is applied as runs end, at most once per this many ms (default 0: at every end).
   * A deployment's processes set a minute: the limits bound what is kept, they need not be exact
   * to the run, and a DELETE scanning the runs at every run's end cost each job a round trip.
   */
  pruneIntervalMs?: number;
}

/**
 * The run store in Postgres, shared by every API node and worker: the SQLite store's semantics
 * (pages written once per run, events in seq order, retention, list paging and search), with
 * writes fenced by the attempt in the same statement (see fenced).
 */
export function createPostgresRunStore(options: PostgresRunStoreOptions): AsyncRunStore {
  const { database } = options;
  const now = options.now ?? Date.now;
  // Pages this process already stored, per run: a checkpoint per step sends only the new ones.
  const storedPages = new Map<string, Set<string>>();
  let pruned: Promise<unknown> | undefined;
  let pruneDue = 0;
  // Retention is applied once on first use, as the SQLite store does when its file opens.
  const firstUse = () => (pruned ??= prune(database, options.retention, now()).catch(() => undefined));
  return {
    async begin(run, status, pid) {
      await firstUse();
      await database.query(
        `INSERT INTO runs (id, owner, source, mode, question, options, settings, status, created_at, started_at, pid)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, started_at = coalesce(EXCLUDED.started_at, runs.started_at),
           pid = EXCLUDED.pid, finished_at = NULL, error = NULL, settings = EXCLUDED.settings`,
        [
          run.id,
          run.owner,
          run.source,
          run.mode,
          run.question,
          JSON.stringify(run.options),
          JSON.stringify(run.settings),
          status,
          now(),
          status === 'running' ? now() : null,
          pid ?? null,
        ],
      );
    },
    async claim(runId, claimer) {
      const { rows } = await database.query(
        `UPDATE runs SET attempt = attempt + 1, worker = $2, pid = $3, status = 'running',
           started_at = coalesce(started_at, $4) WHERE id = $1 AND status IN ('queued', 'running') RETURNING attempt`,
        [runId, claimer.workerId, claimer.pid ?? null, now()],
      );
      if (rows[0]) return Number(rows[0].attempt);
      const { rows: found } = await database.query('SELECT status FROM runs WHERE id = $1', [runId]);
      throw found[0]
        ? new RunClaimError({ runId, code: 'run_finished', status: String(found[0].status) })
        : new RunClaimError({ runId, code: 'run_not_found' });
    },
    async append(runId, events, attempt) {
      if (events.length === 0) return;
      await fenced(database, runId, attempt, {
        set: 'last_seq = greatest(last_seq, $3)',
        writes: [insertEvents(4)],
        values: [events.at(-1)!.seq, ...eventColumns(events)],
      });
    },
    async appendMany(batches) {
      const runs = batches.filter((batch) => batch.events.length > 0);
      if (runs.length === 0) return [];
      const events = runs.flatMap((batch) => batch.events.map((event) => ({ runId: batch.runId, event })));
      // Each run's row is updated only if its attempt holds it; the events of those runs only are
      // written. The rows are locked in id order first: two workers' batches sharing runs (one of
      // them stale) wait for each other instead of deadlocking.
      const { rows } = await database.query(
        `WITH input AS (SELECT * FROM unnest($1::text[], $2::integer[], $3::integer[]) AS i (id, attempt, last_seq)),
         locked AS (SELECT id FROM runs WHERE id = ANY ($1::text[]) ORDER BY id FOR UPDATE),
         fenced AS (UPDATE runs SET last_seq = greatest(runs.last_seq, input.last_seq) FROM input
           WHERE runs.id = input.id AND runs.attempt = input.attempt AND runs.id IN (SELECT id FROM locked)
           RETURNING runs.id),
         written AS (INSERT INTO run_events (run_id, seq, type, at, data)
           SELECT * FROM unnest($4::text[], $5::integer[], $6::text[], $7::bigint[], $8::text[]) AS e (run_id, seq, type, at, data)
           WHERE e.run_id IN (SELECT id FROM fenced) ON CONFLICT DO NOTHING)
         SELECT id FROM fenced`,
        [
          runs.map((batch) => batch.runId),
          runs.map((batch) => batch.attempt),
          runs.map((batch) => batch.events.at(-1)!.seq),
          events.map(({ runId }) => runId),
          ...eventColumns(events.map(({ event }) => event)),
        ],
      );
      const held = new Set(rows.map((row) => String(row.id)));
      return runs.filter((batch) => !held.has(batch.runId)).map((batch) => batch.runId);
    },
    async checkpoint(runId, checkpoint, usage, attempt, events = []) {
      const known = storedPages.get(runId) ?? new Set<string>();
      const fresh = checkpoint.state.pages.filter(({ page }) => !known.has(page.url));
      const pages = checkpoint.state.pages.map(({ keys, page }) => ({ keys, url: page.url }));
      const state = { ...checkpoint, state: { ...checkpoint.state, pages } };
      await fenced(database, runId, attempt, {
        set: 'usage = $3, total_tokens = $4, last_seq = greatest(last_seq, $12)',
        writes: [
          ...(events.length > 0 ? [insertEvents(13)] : []),
          `INSERT INTO run_pages (run_id, url, page) SELECT $1, * FROM unnest($5::text[], $6::text[])
           WHERE EXISTS (SELECT 1 FROM fenced) ON CONFLICT DO NOTHING`,
          `INSERT INTO run_checkpoints (run_id, step, at, version, kind, state)
           SELECT $1, $7::integer, $8::bigint, $9::text, $10::text, $11::text WHERE EXISTS (SELECT 1 FROM fenced)
           ON CONFLICT (run_id) DO UPDATE SET step = EXCLUDED.step, at = EXCLUDED.at, version = EXCLUDED.version,
             kind = EXCLUDED.kind, state = EXCLUDED.state`,
        ],
        values: [
          JSON.stringify(usage),
          usage.totalTokens,
          fresh.map(({ page }) => page.url),
          fresh.map(({ page }) => JSON.stringify(page)),
          checkpoint.step,
          now(),
          JSON.stringify(checkpoint.$schemaVersion ?? null),
          checkpoint.kind ?? null,
          JSON.stringify(state),
          events.at(-1)?.seq ?? 0,
          ...(events.length > 0 ? eventColumns(events) : []),
        ],
      });
      for (const { page } of fresh) known.add(page.url);
      storedPages.set(runId, known);
    },
    async finish(runId, outcome, attempt, events = []) {
      const sourcesAt = events.length > 0 ? 15 : 11;
      await fenced(database, runId, attempt, {
        set: `status = $3, finished_at = $4, pid = NULL, worker = NULL, result = coalesce($5, result),
           answer = coalesce($6, answer), error = $7, usage = coalesce($8, usage), total_tokens = coalesce($9, total_tokens),
           last_seq = greatest(last_seq, $10)`,
        writes: [
          ...(events.length > 0 ? [insertEvents(11)] : []),
          ...(outcome.sources ? writeSources(sourcesAt) : []),
        ],
        values: [
          ...finishColumns(outcome, now()),
          events.at(-1)?.seq ?? 0,
          ...(events.length > 0 ? eventColumns(events) : []),
          ...(outcome.sources ? sourceColumns(outcome.sources) : []),
        ],
      });
      storedPages.delete(runId);
      if (now() >= pruneDue) {
        pruneDue = now() + (options.pruneIntervalMs ?? 0);
        await prune(database, options.retention, now());
      }
    },
    async unfinished(limit) {
      const { rows } = await database.query(
        `SELECT id, owner, attempt FROM runs WHERE status IN ('queued', 'running') ORDER BY created_at, ord LIMIT $1`,
        [limit],
      );
      return rows.map((row) => ({
        id: String(row.id),
        owner: String(row.owner),
        attempt: Number(row.attempt),
      }));
    },
    async get(id) {
      const { rows } = await database.query(
        `SELECT runs.*, run_checkpoints.step AS checkpoint_step FROM runs
         LEFT JOIN run_checkpoints ON run_checkpoints.run_id = runs.id WHERE runs.id = $1`,
        [id],
      );
      return rows[0] ? toRecord(rows[0]) : undefined;
    },
    async resolveId(prefix, owner) {
      const { rows } = await database.query(
        `SELECT id FROM runs WHERE left(id, length($1)) = $1 ${owner === undefined ? '' : 'AND owner = $2'} LIMIT 2`,
        owner === undefined ? [prefix] : [prefix, owner],
      );
      return rows.length === 1 ? String(rows[0]!.id) : undefined;
    },
    async events(runId, afterSeq = 0) {
      const { rows } = await database.query(
        'SELECT data FROM run_events WHERE run_id = $1 AND seq > $2 ORDER BY seq',
        [runId, afterSeq],
      );
      return rows.map((row) => JSON.parse(String(row.data)) as AgentEvent);
    },
    async checkpointHead(runId) {
      const { rows } = await database.query('SELECT version, kind FROM run_checkpoints WHERE run_id = $1', [
        runId,
      ]);
      const row = rows[0];
      return row ? { $schemaVersion: json(row.version), kind: row.kind ?? undefined } : undefined;
    },
    restore: (runId) => restore(database, runId),
    async sources(runId) {
      const { rows } = await database.query('SELECT * FROM run_sources WHERE run_id = $1 ORDER BY position', [
        runId,
      ]);
      return rows.map(fromSnapshotRow);
    },
    async list(query) {
      await firstUse();
      return list(database, query);
    },
    async delete(id) {
      storedPages.delete(id);
      return (await database.query('DELETE FROM runs WHERE id = $1', [id])).rowCount > 0;
    },
    prune: () => prune(database, options.retention, now()),
    close: () => database.close(),
  };
}

/** The INSERT of a run's events whose columns are the parameters from $first on (eventColumns). */
function insertEvents(first: number): string {
  const [seq, type, at, data] = [first, first + 1, first + 2, first + 3];
  return `INSERT INTO run_events (run_id, seq, type, at, data)
    SELECT $1, * FROM unnest($${seq}::integer[], $${type}::text[], $${at}::bigint[], $${data}::text[])
    WHERE EXISTS (SELECT 1 FROM fenced) ON CONFLICT DO NOTHING`;
}

/**
 * The writes of a run's source snapshots, whose columns are the parameters from $first on
 * (sourceColumns): each position upserted, the positions past them (an earlier end's) deleted.
 * One statement's sub-writes see the same rows, so no delete and insert of the same key.
 */
function writeSources(first: number): string[] {
  const [url, title, fetched, status, hash, meta, body] = Array.from(
    { length: 7 },
    (_, i) => `$${first + i}`,
  );
  return [
    `INSERT INTO run_sources (run_id, position, url, title, fetched_at, status, hash, meta, body)
     SELECT $1, s.ordinality - 1, s.url, s.title, s.fetched_at, s.status, s.hash, s.meta, s.body
     FROM unnest(${url}::text[], ${title}::text[], ${fetched}::text[], ${status}::integer[], ${hash}::text[],
       ${meta}::text[], ${body}::bytea[]) WITH ORDINALITY AS s (url, title, fetched_at, status, hash, meta, body, ordinality)
     WHERE EXISTS (SELECT 1 FROM fenced)
     ON CONFLICT (run_id, position) DO UPDATE SET url = EXCLUDED.url, title = EXCLUDED.title,
       fetched_at = EXCLUDED.fetched_at, status = EXCLUDED.status, hash = EXCLUDED.hash, meta = EXCLUDED.meta,
       body = EXCLUDED.body`,
    `DELETE FROM run_sources WHERE run_id = $1 AND position >= cardinality(${url}::text[])
     AND EXISTS (SELECT 1 FROM fenced)`,
  ];
}

/** Source snapshots as the columns of run_sources, one array each. */
function sourceColumns(sources: readonly SourceSnapshot[]): unknown[] {
  const rows = sources.map(toSnapshotRow);
  return [
    rows.map((row) => row.url),
    rows.map((row) => row.title),
    rows.map((row) => row.fetched_at),
    rows.map((row) => row.status),
    rows.map((row) => row.hash),
    rows.map((row) => row.meta),
    rows.map((row) => row.body),
  ];
}

/** Events as the columns of run_events, one array each: seq, type, at, data. */
function eventColumns(events: readonly AgentEvent[]): unknown[] {
  return [
    events.map((event) => event.seq),
    events.map((event) => event.type),
    events.map((event) => event.at),
    events.map(eventJson),
  ];
}

/**
 * A write fenced by the attempt, as one statement (one round trip, its own transaction): the
 * run's row is updated (`set`, from $3 on) only if `attempt` still holds it, and each of `writes`
 * runs only if it was (`WHERE EXISTS (SELECT 1 FROM fenced)`). The row lock the update takes
 * orders the write against a concurrent claim: a claim committed first makes the update match
 * nothing, and nothing is written; one coming after waits for this write, so the new attempt
 * reads it when it restores.
 */
async function fenced(
  database: PostgresDatabase,
  runId: string,
  attempt: number,
  write: { set: string; writes?: readonly string[]; values: readonly unknown[] },
): Promise<void> {
  const steps = (write.writes ?? []).map((sql, index) => `, write${index} AS (${sql})`).join('');
  const { rows } = await database.query(
    `WITH fenced AS (UPDATE runs SET ${write.set} WHERE id = $1 AND attempt = $2 RETURNING 1)${steps}
     SELECT count(*)::integer AS held FROM fenced`,
    [runId, attempt, ...write.values],
  );
  if (rows[0]?.held) return;
  const { rows: found } = await database.query('SELECT attempt FROM runs WHERE id = $1', [runId]);
  throw new StaleAttemptError({ runId, attempt, current: found[0] ? Number(found[0].attempt) : undefined });
}

async function restore(database: PostgresDatabase, runId: string) {
  const { rows } = await database.query(
    `SELECT run_checkpoints.state, runs.last_seq FROM run_checkpoints
     JOIN runs ON runs.id = run_checkpoints.run_id WHERE run_id = $1`,
    [runId],
  );
  if (!rows[0]) return undefined;
  const saved = json<StoredCheckpoint>(rows[0].state)!;
  const { rows: pageRows } = await database.query('SELECT url, page FROM run_pages WHERE run_id = $1', [
    runId,
  ]);
  const byUrl = new Map(pageRows.map((row) => [String(row.url), String(row.page)]));
  const savedPages = saved.state.pages as unknown as Array<{ keys: string[]; url: string }>;
  const pages = savedPages.map(({ keys, url }) => ({ keys, page: json<StoredPage>(byUrl.get(url))! }));
  return { checkpoint: { ...saved, state: { ...saved.state, pages } }, lastSeq: Number(rows[0].last_seq) };
}

/** A run of `deepsearch eval`: its options name the question it answered (as the SQLite store asks). */
const isEvaluation = "((options::jsonb -> 'eval') IS NOT NULL)";

async function list(database: PostgresDatabase, query: Parameters<AsyncRunStore['list']>[0]) {
  const where: string[] = [];
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  if (query.owner !== undefined) where.push(`owner = ${param(query.owner)}`);
  if (query.before !== undefined) where.push(`created_at < ${param(query.before)}`);
  if (query.q) {
    const pattern = param(`%${query.q.replace(/[\\%_]/g, (match) => `\\${match}`)}%`);
    where.push(`(question ILIKE ${pattern} ESCAPE '\\' OR answer ILIKE ${pattern} ESCAPE '\\')`);
  }
  if (query.withoutEvaluations) where.push(`NOT ${isEvaluation}`);
  const { rows } = await database.query<Row>(
    `SELECT id, owner, source, status, mode, question, created_at, finished_at, pid, left(answer, 200) AS preview,
       total_tokens, usage, ${isEvaluation} AS evaluation FROM runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY created_at DESC, ord DESC LIMIT ${param(query.limit + 1)}`,
    values,
  );
  return { runs: rows.slice(0, query.limit).map(toSummary), hasMore: rows.length > query.limit };
}

/** Runs older than maxAgeDays, then the oldest finished runs beyond maxRuns (their rows cascade). */
async function prune(database: PostgresDatabase, retention: RunsConfig['retention'], now: number) {
  const { rowCount } = await database.query(
    `DELETE FROM runs WHERE created_at < $1 OR id IN (
       SELECT id FROM runs WHERE status IN ('completed', 'failed', 'cancelled') ORDER BY created_at DESC, ord DESC OFFSET $2)`,
    [now - retention.maxAgeDays * 86_400_000, retention.maxRuns],
  );
  return rowCount;
}

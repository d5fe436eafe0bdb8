import type { Pool } from 'pg';

/**
 * The deployment's schema, as numbered migrations applied in order; `deepsearch_migrations` records
 * those applied. Every migration keeps what a node of the previous release relies on (new tables,
 * new columns with defaults; a run's rows still go with it), so it keeps working against a database
 * a newer one migrated: a rolling upgrade
 * starts the new nodes, which migrate, then stops the old ones.
 *
 * Events, checkpoints and pages are kept as JSON text, as SQLite keeps them: they are written and
 * read whole, never queried inside, and text costs Postgres no parsing. A checkpoint's format
 * version and kind get their own columns so `runs resume` checks them without loading the state.
 */
export const postgresMigrations: readonly string[] = [
  `CREATE TABLE runs (
     id text PRIMARY KEY,
     ord bigserial NOT NULL,
     owner text NOT NULL,
     source text NOT NULL,
     mode text NOT NULL,
     question text NOT NULL,
     options text NOT NULL,
     settings text NOT NULL,
     status text NOT NULL,
     created_at bigint NOT NULL,
     started_at bigint,
     finished_at bigint,
     pid integer,
     result text,
     answer text,
     error text,
     usage text,
     total_tokens bigint,
     last_seq integer NOT NULL DEFAULT 0,
     attempt integer NOT NULL DEFAULT 0,
     worker text
   );
   CREATE INDEX runs_owner_created ON runs (owner, created_at DESC, ord DESC);
   CREATE INDEX runs_created ON runs (created_at DESC, ord DESC);
   CREATE TABLE run_events (
     run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     seq integer NOT NULL,
     type text NOT NULL,
     at bigint NOT NULL,
     data text NOT NULL,
     PRIMARY KEY (run_id, seq)
   );
   CREATE TABLE run_checkpoints (
     run_id text PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
     step integer NOT NULL,
     at bigint NOT NULL,
     version text,
     kind text,
     state text NOT NULL
   );
   CREATE TABLE run_pages (
     run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
     url text NOT NULL,
     page text NOT NULL,
     PRIMARY KEY (run_id, url)
   );
   CREATE TABLE domains (
     host text PRIMARY KEY,
     first_seen text COLLATE "C",
     reference_count integer NOT NULL DEFAULT 0,
     failures integer NOT NULL DEFAULT 0,
     successes integer NOT NULL DEFAULT 0,
     paywalled integer NOT NULL DEFAULT 0,
     blocked integer NOT NULL DEFAULT 0,
     https boolean,
     last_problem_at text COLLATE "C"
   );`,
  // A run's rows go with it by a trigger instead of foreign keys: every write to them is fenced by
  // an UPDATE of the run's row in the same statement (postgres-run-store.ts), which already finds
  // the run and locks it against a concurrent delete, so the key's check of each inserted row (a
  // query and a row lock per event) bought nothing. One statement-level trigger deletes the rows
  // of every run a DELETE removes (a run deleted, or pruned), as ON DELETE CASCADE did.
  `CREATE FUNCTION deepsearch_delete_run_rows() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM run_events USING gone WHERE run_events.run_id = gone.id;
     DELETE FROM run_pages USING gone WHERE run_pages.run_id = gone.id;
     DELETE FROM run_checkpoints USING gone WHERE run_checkpoints.run_id = gone.id;
     RETURN NULL;
   END $$;
   CREATE TRIGGER runs_delete_rows AFTER DELETE ON runs REFERENCING OLD TABLE AS gone
     FOR EACH STATEMENT EXECUTE FUNCTION deepsearch_delete_run_rows();
   ALTER TABLE run_events DROP CONSTRAINT run_events_run_id_fkey;
   ALTER TABLE run_pages DROP CONSTRAINT run_pages_run_id_fkey;
   ALTER TABLE run_checkpoints DROP CONSTRAINT run_checkpoints_run_id_fkey;`,
  // What a run read of the sources it cites (runs/source-snapshot.ts): written with its end, the
  // text compressed; deleted with the run by the same trigger.
  `CREATE TABLE run_sources (
     run_id text NOT NULL,
     position integer NOT NULL,
     url text NOT NULL,
     title text NOT NULL,
     fetched_at text NOT NULL,
     status integer,
     hash text NOT NULL,
     meta text NOT NULL,
     body bytea NOT NULL,
     PRIMARY KEY (run_id, position)
   );
   CREATE OR REPLACE FUNCTION deepsearch_delete_run_rows() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM run_events USING gone WHERE run_events.run_id = gone.id;
     DELETE FROM run_pages USING gone WHERE run_pages.run_id = gone.id;
     DELETE FROM run_checkpoints USING gone WHERE run_checkpoints.run_id = gone.id;
     DELETE FROM run_sources USING gone WHERE run_sources.run_id = gone.id;
     RETURN NULL;
   END $$;`,
  // Watches (src/watch/): questions re-run on a schedule, each check's changes, and the webhook
  // posts still to send (kept here so a restart loses none). JSON as text, as the runs keep it.
  `CREATE TABLE watches (
     id text PRIMARY KEY,
     owner text NOT NULL,
     name text NOT NULL,
     question text NOT NULL,
     mode text NOT NULL,
     schedule text NOT NULL,
     notify text,
     notify_always integer NOT NULL DEFAULT 0,
     paused integer NOT NULL DEFAULT 0,
     created_at bigint NOT NULL,
     next_run_at bigint NOT NULL,
     last_run_at bigint,
     lease_until bigint NOT NULL DEFAULT 0
   );
   CREATE INDEX watches_owner ON watches (owner, created_at);
   CREATE INDEX watches_next_run ON watches (next_run_at);
   CREATE TABLE watch_runs (
     id text PRIMARY KEY,
     watch_id text NOT NULL,
     run_id text,
     status text NOT NULL,
     started_at bigint NOT NULL,
     finished_at bigint NOT NULL,
     changes text NOT NULL,
     summary text NOT NULL,
     error text,
     answer text
   );
   CREATE INDEX watch_runs_watch ON watch_runs (watch_id, started_at);
   CREATE TABLE watch_notifications (
     id text PRIMARY KEY,
     watch_id text NOT NULL,
     watch_run_id text NOT NULL,
     url text NOT NULL,
     secret text,
     format text NOT NULL,
     body text NOT NULL,
     attempts integer NOT NULL DEFAULT 0,
     next_attempt_at bigint NOT NULL,
     last_error text
   );
   CREATE INDEX watch_notifications_due ON watch_notifications (next_attempt_at);`,
];

// Any number, the same in every process: nodes starting together migrate one at a time.
const migrationLock = 0x6465_6570;

/** Applies the migrations this database lacks, in one transaction, under an advisory lock. */
export async function migratePostgres(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLock]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS deepsearch_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>(
      'SELECT coalesce(max(version), 0) AS version FROM deepsearch_migrations',
    );
    for (let version = rows[0]!.version; version < postgresMigrations.length; version++) {
      await client.query(postgresMigrations[version]!);
      await client.query('INSERT INTO deepsearch_migrations (version) VALUES ($1)', [version + 1]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

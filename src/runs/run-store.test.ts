import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../core/errors/index.js';
import type { AgentEvent } from '../events/agent-events.js';
import type { NewRun } from './run-record.js';
import { createRunRecorder } from './run-recorder.js';
import { createRunStore } from './run-store.js';
import { snapshotOf } from './source-snapshot.js';
import { StaleAttemptError } from './stale-attempt-error.js';

const page = (url: string, text: string) => ({ url, title: url, text, markdown: text, step: 1 });

const newRun = (id: string, question = `question ${id}`): NewRun => ({
  id,
  owner: 'local',
  source: 'cli',
  mode: 'search',
  question,
  options: {},
  settings: { budget: { maxSteps: 5 } },
});

function storeAt(clock: { now: number }, retention = { maxRuns: 3, maxAgeDays: 10 }) {
  return createRunStore({ file: ':memory:', retention, now: () => clock.now });
}

const warning = (runId: string, seq: number, message: string): AgentEvent => ({
  type: 'warning',
  step: 1,
  message,
  runId,
  seq,
  at: seq,
});

describe('run store', () => {
  it('keeps at most maxRuns finished runs and none older than maxAgeDays; running ones stay', () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const store = storeAt(clock);
    for (const id of ['a', 'b', 'c', 'd']) {
      clock.now += 1000;
      store.begin(newRun(id), 'running');
      store.append(id, [warning(id, 1, 'w')]);
      store.finish(id, { status: 'completed', result: { answer: `answer ${id}` } });
    }
    store.begin(newRun('live'), 'running');
    expect(store.list({ limit: 10 }).runs.map((run) => run.id)).toEqual(['live', 'd', 'c', 'b']);
    expect(store.events('a')).toEqual([]);
    clock.now += 11 * 86_400_000;
    expect(store.prune()).toBe(4);
    expect(store.list({ limit: 10 }).runs).toEqual([]);
  });

  it('lists newest first with a page cursor and searches question and answer text', () => {
    const clock = { now: 1_000_000 };
    const store = storeAt(clock, { maxRuns: 100, maxAgeDays: 1000 });
    for (const [id, question] of [
      ['r1', 'Who wrote 100% of it?'],
      ['r2', 'What is SearXNG?'],
      ['r3', 'Capital of France'],
    ] as const) {
      clock.now += 1000;
      store.begin(newRun(id, question), 'running');
      store.finish(id, {
        status: 'completed',
        result: { answer: id === 'r3' ? 'Paris is the capital.' : 'x' },
      });
    }
    const first = store.list({ limit: 2 });
    expect(first.runs.map((run) => run.id)).toEqual(['r3', 'r2']);
    expect(first.hasMore).toBe(true);
    expect(store.list({ limit: 2, before: first.runs[1]!.createdAt }).runs.map((run) => run.id)).toEqual([
      'r1',
    ]);
    expect(store.list({ limit: 5, q: 'paris' }).runs.map((run) => run.id)).toEqual(['r3']);
    // LIKE wildcards in the text are searched for literally.
    expect(store.list({ limit: 5, q: '100%' }).runs.map((run) => run.id)).toEqual(['r1']);
    expect(store.list({ limit: 5, q: '_' }).runs).toEqual([]);
    expect(store.resolveId('r')).toBeUndefined();
    expect(store.resolveId('r2')).toBe('r2');
  });

  it('records events redacted and batched, prices calls per role, and null when a model has no price', () => {
    const store = storeAt({ now: 1 });
    store.begin(newRun('p'), 'running');
    const recorder = createRunRecorder({
      store,
      runId: 'p',
      redact: createRedactor(['sk-secret-123456']),
      prices: { cheap: { inputPerMillion: 1, outputPerMillion: 2 } },
    });
    const call = (seq: number, role: 'agent' | 'evaluator', model: string): AgentEvent => ({
      type: 'llm-call',
      step: 1,
      role,
      model,
      promptTokens: 1_000_000,
      completionTokens: 500_000,
      ms: 1,
      outcome: 'ok',
      estimated: false,
      repairs: 0,
      runId: 'p',
      seq,
      at: seq,
    });
    recorder.observe(call(1, 'agent', 'cheap'));
    recorder.observe(warning('p', 2, 'upstream said sk-secret-123456'));
    // Not written until a step ends (or a quarter second passes).
    expect(store.events('p')).toEqual([]);
    recorder.observe(call(3, 'evaluator', 'unknown-model'));
    recorder.finish({ status: 'completed', result: { answer: 'ok' } });
    const events = store.events('p');
    expect(events.map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(JSON.stringify(events)).not.toContain('sk-secret-123456');
    const usage = store.get('p')!.usage!;
    expect(usage.byRole.agent).toMatchObject({ calls: 1, totalTokens: 1_500_000, costUsd: 2 });
    expect(usage.byRole.evaluator).toMatchObject({ calls: 1, costUsd: null });
    expect(usage.costUsd).toBeNull();
    expect(store.events('p', 2).map((event) => event.seq)).toEqual([3]);
  });

  it('a checkpoint keeps the state and writes each page once; delete removes everything of the run', () => {
    const store = storeAt({ now: 1 });
    store.begin(newRun('c'), 'running');
    const page = { url: 'https://a.example/', title: 'A', text: 'text', markdown: 'text', step: 1 };
    const checkpoint = (step: number) => ({
      $schemaVersion: 1 as const,
      step,
      state: {
        question: 'q',
        currentQuestion: 'q',
        gaps: { original: 'q', pending: [], added: [] },
        diary: [],
        failedAttempts: [],
        knowledge: [],
        urls: [],
        pages: [{ keys: ['a.example/', 'a.example/index'], page }],
        searches: [],
        visited: ['a.example/'],
        badUrls: [],
        disabled: [],
      },
      budget: {} as never,
    });
    const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: null, byRole: {} };
    store.checkpoint('c', checkpoint(1), usage);
    store.append('c', [warning('c', 7, 'w')]);
    store.checkpoint('c', checkpoint(2), usage);
    expect(store.restore('c')!.lastSeq).toBe(7);
    // A step's last events go in the checkpoint's own write.
    store.checkpoint('c', checkpoint(2), usage, undefined, [warning('c', 8, 'x'), warning('c', 9, 'y')]);
    expect(store.events('c', 7).map((event) => event.seq)).toEqual([8, 9]);
    const restored = store.restore('c')!;
    expect(restored.lastSeq).toBe(9);
    expect(restored.checkpoint.step).toBe(2);
    expect(restored.checkpoint.state.pages).toEqual([{ keys: ['a.example/', 'a.example/index'], page }]);
    expect(store.get('c')!.checkpointStep).toBe(2);
    // A deep search's checkpoint has no kind; its head is read without the pages.
    expect(store.checkpointHead('c')).toEqual({ $schemaVersion: 1, kind: undefined });
    expect(store.delete('c')).toBe(true);
    expect(store.restore('c')).toBeUndefined();
    expect(store.checkpointHead('c')).toBeUndefined();
    expect(store.events('c')).toEqual([]);
  });

  it('compiles each statement once, not at every write: a run costs the same whatever ran before it', () => {
    const compiled: string[] = [];
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    // A constructor that returns the real database with its prepare counted.
    function CountingDatabase(file: string) {
      const database = new Database(file);
      const prepare = database.prepare.bind(database);
      database.prepare = ((source: string) => {
        compiled.push(source);
        return prepare(source);
      }) as typeof database.prepare;
      return database;
    }
    const store = createRunStore({
      file: ':memory:',
      retention: { maxRuns: 100, maxAgeDays: 10 },
      loadDriver: () => CountingDatabase as unknown as typeof BetterSqlite3,
    });
    const oneRun = (id: string) => {
      store.begin(newRun(id), 'queued');
      store.begin(newRun(id), 'running');
      for (const seq of [1, 2, 3]) store.append(id, [warning(id, seq, `w${seq}`)]);
      store.get(id);
      store.events(id, 1);
      store.finish(id, { status: 'completed', result: { answer: `answer ${id}` } });
      store.list({ limit: 5, owner: 'local' });
    };
    oneRun('first');
    const afterOne = compiled.length;
    for (let index = 0; index < 20; index++) oneRun(`run-${index}`);
    expect(compiled.length).toBe(afterOne);
    expect(new Set(compiled).size).toBe(compiled.length);
    expect(store.events('run-19').map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(store.list({ limit: 100 }).runs).toHaveLength(21);
  });

  it('migrates a file written before attempts: its runs are kept at attempt 0, and an older build still writes it', () => {
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    const folder = mkdtempSync(join(tmpdir(), 'deepsearch-runs-migration-'));
    const file = join(folder, 'runs.sqlite');
    try {
      // The schema as the previous release created it, with one run in it.
      const old = new Database(file);
      old.exec(`CREATE TABLE runs (id TEXT PRIMARY KEY, owner TEXT NOT NULL, source TEXT NOT NULL, mode TEXT NOT NULL,
        question TEXT NOT NULL, options TEXT NOT NULL, settings TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL,
        started_at INTEGER, finished_at INTEGER, pid INTEGER, result TEXT, answer TEXT, error TEXT, usage TEXT,
        total_tokens INTEGER, last_seq INTEGER NOT NULL DEFAULT 0);
        INSERT INTO runs (id, owner, source, mode, question, options, settings, status, created_at)
        VALUES ('old', 'local', 'cli', 'search', 'q', '{}', '{}', 'queued', 1);`);
      old.close();
      const retention = { maxRuns: 100, maxAgeDays: 100_000 };
      const store = createRunStore({ file, retention, now: () => 2 });
      expect(store.get('old')).toMatchObject({ status: 'queued', attempt: 0, worker: null });
      expect(store.claim('old', { workerId: 'w' })).toBe(1);
      store.append('old', [warning('old', 1, 'w')], 1);
      expect(() => store.append('old', [warning('old', 2, 'w')], 0)).toThrow(StaleAttemptError);
      store.close();
      // Opening again migrates nothing twice; the previous release's writes name only its columns.
      const reopened = new Database(file);
      expect(reopened.pragma('user_version', { simple: true })).toBe(2);
      reopened
        .prepare(
          `INSERT INTO runs (id, owner, source, mode, question, options, settings, status, created_at)
           VALUES ('older-build', 'local', 'cli', 'search', 'q', '{}', '{}', 'running', 3)`,
        )
        .run();
      reopened.close();
      const again = createRunStore({ file, retention });
      expect(again.get('older-build')).toMatchObject({ attempt: 0 });
      expect(again.get('old')).toMatchObject({ attempt: 1, worker: 'w', lastSeq: 1 });
      // A run of before source snapshots has none; one ended now keeps them.
      expect(again.sources('old')).toEqual([]);
      again.finish('old', { status: 'completed', sources: [snapshotOf(page('https://a.example/', 'read'))] });
      expect(again.sources('old').map((source) => source.text)).toEqual(['read']);
      again.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

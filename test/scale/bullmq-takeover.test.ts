// BullMQ on a real Redis (and the run store on a real Postgres): what only a shared queue does.
// A worker whose event loop blocks past its lock loses the job to another worker and writes
// nothing after; a Redis that may evict keys, or that is not there, is refused at start.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/core/errors/index.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import type { JobQueue } from '../../src/scale/job-queue.js';
import { createPostgresDatabase } from '../../src/scale/postgres/postgres-database.js';
import { createPostgresRunStore } from '../../src/scale/postgres/postgres-run-store.js';
import { createBullmqJobQueue } from '../../src/scale/redis/bullmq-job-queue.js';
import { createJobAdmission } from '../../src/scale/redis/job-admission.js';
import { openRedis } from '../../src/scale/redis/open-redis.js';
import {
  freePort,
  hasRedis,
  needServices,
  type PostgresService,
  type RunningService,
  startPostgres,
  startRedis,
} from '../helpers/scale-services.js';

const available = needServices('redis', 'postgres');
let redis: RunningService | undefined;
let postgres: PostgresService | undefined;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'deepsearch-takeover-'));
  if (available) [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([redis?.stop(), postgres?.stop()]);
  rmSync(folder, { recursive: true, force: true });
});

const waitFor = <T>(probe: () => T | Promise<T>) => vi.waitUntil(probe, { timeout: 30_000, interval: 20 });

/** The fixture worker in its own process, its JSON lines collected. */
function startBlockingWorker(env: Record<string, string>): {
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
} {
  const fixture = new URL('./fixtures/blocking-worker.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
      buffer = buffer.slice(newline + 1);
    }
  });
  return { child, lines };
}

describe.skipIf(!available)('BullMQ queue: takeover and fencing', () => {
  it('a worker blocked past its lock loses the job; the new attempt goes on and the old one writes nothing', async () => {
    const url = await postgres!.createDatabase();
    const store = createPostgresRunStore({
      database: createPostgresDatabase({ url }),
      retention: { maxRuns: 100, maxAgeDays: 100 },
    });
    const settings = {
      url: redis!.url,
      prefix: 'takeover',
      lockMs: 1000,
      stalledIntervalMs: 500,
      maxQueue: 10,
    };
    const api = await createBullmqJobQueue({ ...settings, workerId: 'api' });
    const runId = 'run_takeover';
    await store.begin(
      {
        id: runId,
        owner: 'local',
        source: 'research',
        mode: 'search',
        question: 'q',
        options: {},
        settings: {},
      },
      'queued',
    );
    await api.enqueue({ id: runId, owner: 'local', data: {} });
    const claimedFile = join(folder, 'claimed');
    const blocked = startBlockingWorker({
      REDIS_URL: redis!.url,
      DATABASE_URL: url,
      PREFIX: 'takeover',
      CLAIMED_FILE: claimedFile,
    });
    let other: JobQueue | undefined;
    try {
      await waitFor(() => blocked.lines.some((line) => line.claimed === 1));
      const runs: number[] = [];
      other = await createBullmqJobQueue({ ...settings, workerId: 'other' });
      await other.work({
        concurrency: 1,
        async handler(job) {
          const attempt = await store.claim(job.id, { workerId: job.workerId });
          runs.push(attempt);
          writeFileSync(claimedFile, String(attempt));
          const { lastSeq } = (await store.get(job.id))!;
          const next: AgentEvent = {
            type: 'warning',
            step: 2,
            message: 'by the new attempt',
            runId,
            seq: lastSeq + 1,
            at: 2,
          };
          await store.append(job.id, [next], attempt);
          await store.finish(job.id, { status: 'completed', result: { answer: 'done' } }, attempt);
        },
      });
      await waitFor(() => blocked.lines.some((line) => 'refused' in line || 'wrote' in line));
      expect(blocked.lines.find((line) => 'refused' in line || 'wrote' in line)).toEqual({
        refused: 'stale_attempt',
      });
      await waitFor(async () => (await store.get(runId))?.status === 'completed');
      const events = await store.events(runId);
      expect(events.map((event) => [event.seq, (event as { message: string }).message])).toEqual([
        [1, 'before the block'],
        [2, 'by the new attempt'],
      ]);
      expect(await store.get(runId)).toMatchObject({ attempt: 2, lastSeq: 2 });
      // The job is over for the queue: nobody runs it again.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(runs).toEqual([2]);
      expect(await api.counts()).toEqual({ queued: 0, running: 0 });
    } finally {
      blocked.child.kill('SIGKILL');
      await other?.close();
      await api.close();
      await store.close();
    }
  }, 60_000);
});

describe.skipIf(!hasRedis())('BullMQ queue: refused at start', () => {
  it('refuses a Redis that may evict keys, naming the setting to change', async () => {
    const evicting = await startRedis({ 'maxmemory-policy': 'allkeys-lru' });
    try {
      const error = await createBullmqJobQueue({ url: evicting.url, maxQueue: 1 }).catch((caught) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toMatchObject({ code: 'config_redis_eviction' });
      expect(error.message).toContain('maxmemory-policy allkeys-lru');
      expect(error.message).toContain('noeviction');
    } finally {
      await evicting.stop();
    }
  });

  it('says which Redis cannot be reached, without its password', async () => {
    const url = `redis://:hunter2-secret@127.0.0.1:${await freePort()}`;
    const error = await createBullmqJobQueue({ url, maxQueue: 1 }).catch((caught) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: 'config_redis_unavailable' });
    expect(error.message).toContain('127.0.0.1');
    expect(error.message).not.toContain('hunter2-secret');
  });

  it('an API node whose Redis went away fails a new job at once instead of holding the request', async () => {
    const lost = await startRedis();
    const api = await createBullmqJobQueue({ url: lost.url, maxQueue: 5, workerId: 'api' });
    await lost.stop();
    const started = performance.now();
    await expect(api.enqueue({ id: 'while-down', owner: 'o', data: {} })).rejects.toThrow();
    expect(performance.now() - started).toBeLessThan(5000);
    await api.close();
  });
});

describe.skipIf(!hasRedis())('BullMQ queue: reconciling the admitted jobs', () => {
  it("releases a job admitted but never added (its API node died between the two), not a running one's", async () => {
    const settings = {
      url: redis!.url,
      prefix: 'sweep',
      maxQueue: 10,
      maxJobsPerOwner: 1,
      sweepIntervalMs: 200,
    };
    const api = await createBullmqJobQueue({ ...settings, workerId: 'api' });
    const connection = await openRedis(redis!.url, { name: 'test' });
    const workers: JobQueue[] = [];
    let finish = () => {};
    try {
      // What an API node that died after admitting and before adding leaves behind.
      expect(await createJobAdmission(connection, 'sweep').admit('orphan', 'alice', settings)).toBe('ok');
      await expect(api.enqueue({ id: 'second', owner: 'alice', data: {} })).rejects.toMatchObject({
        code: 'owner_busy',
      });
      const running = new Promise<void>((resolve) => (finish = resolve));
      for (const workerId of ['one', 'two']) {
        const worker = await createBullmqJobQueue({ ...settings, workerId });
        await worker.work({ concurrency: 1, handler: () => running });
        workers.push(worker);
      }
      await api.enqueue({ id: 'held', owner: 'bob', data: {} });
      await waitFor(async () => (await api.counts()).running === 1);
      // Two workers sweep, one at a time; the orphan goes once seen gone twice.
      await waitFor(async () => (await connection.hexists('sweep:jobs:admitted', 'orphan')) === 0);
      await api.enqueue({ id: 'second', owner: 'alice', data: {} });
      // The running job kept its place: bob is still at his limit.
      await expect(api.enqueue({ id: 'third', owner: 'bob', data: {} })).rejects.toMatchObject({
        code: 'owner_busy',
      });
    } finally {
      finish();
      for (const worker of workers) await worker.close();
      await api.close();
      connection.disconnect();
    }
  }, 30_000);
});

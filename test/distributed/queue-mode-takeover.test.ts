// Queue mode with real processes: 2 API nodes (`deepsearch serve`), 2 workers (`deepsearch
// worker`), Redis and Postgres, a fake LLM recording every call, fake search and web, all on
// 127.0.0.1. A research run survives its worker's SIGKILL and SIGTERM: the other worker goes on
// from the last checkpoint, and a client following it on the other API node sees every event once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase, type PostgresDatabase } from '../../src/scale/postgres/postgres-database.js';
import type { FakeOpenAiRequest, FakeOpenAiServer } from '../../src/testing/fake-openai-server.js';
import {
  type BuiltServer,
  type BuiltWorker,
  startApiNode,
  startBuiltWorker,
} from '../helpers/queue-cluster.js';
import { type QueueWorld, startQueueWorld } from '../helpers/queue-world.js';
import { isOutlook, researchPlanWithOutlook, researchTopic } from '../helpers/research-fake-llm.js';
import { needServices } from '../helpers/scale-services.js';
import { sseData } from '../helpers/server-harness.js';

const available = needServices('redis', 'postgres');

const agentCalls = (requests: FakeOpenAiRequest[]) =>
  requests.filter((request) => request.route === 'agent_action');
const waitFor = <T>(probe: () => T | Promise<T>, timeout = 60_000) =>
  vi.waitUntil(probe, { timeout, interval: 50 });

const lockSeconds = 5;
let world: QueueWorld | undefined;
let llm: FakeOpenAiServer;
let database: PostgresDatabase;
let env: Record<string, string>;
/** While set, the outlook section's agent calls hang: its worker is stopped meanwhile. */
let holdOutlook = true;

beforeAll(async () => {
  if (!available) return;
  world = await startQueueWorld({
    plan: researchPlanWithOutlook,
    hold: (request) => holdOutlook && isOutlook(request),
  });
  ({ llm } = world);
  database = createPostgresDatabase({ url: world.queueEnv.DEEPSEARCH_DATABASE_URL! });
  env = {
    ...world.queueEnv,
    ...world.modelEnv,
    // Short enough for a quick takeover, long enough that a loaded machine renews it in time.
    DEEPSEARCH_JOB_LOCK_SECONDS: String(lockSeconds),
    DEEPSEARCH_LOG_FORMAT: 'json',
    DEEPSEARCH_SHUTDOWN_GRACE: '1',
    DEEPSEARCH_RESEARCH_CONCURRENCY: '1',
    DEEPSEARCH_RESEARCH_MAX_HOPS: '1',
  };
}, 120_000);

afterAll(async () => {
  await database?.close();
  await world?.stop();
});

async function attemptOf(runId: string): Promise<number | undefined> {
  const { rows } = await database.query<{ attempt: number }>('SELECT attempt FROM runs WHERE id = $1', [
    runId,
  ]);
  return rows[0]?.attempt;
}

/** One sample's value in a Prometheus scrape (`name{labels} value`), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !(line.startsWith(`${name}{`) || line.startsWith(`${name} `))) continue;
    if (wanted.every((pair) => line.includes(pair))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

/** The worker process holding the run now (the worker id names its pid). */
async function holder(runId: string, workers: BuiltWorker[]): Promise<BuiltWorker | undefined> {
  const { rows } = await database.query<{ worker: string | null }>('SELECT worker FROM runs WHERE id = $1', [
    runId,
  ]);
  const pid = rows[0]?.worker?.split(':')[1];
  return workers.find((worker) => String(worker.child.pid) === pid);
}

/** Follows a run's events on an API node to its end: the ids and the `done` status. */
async function follow(node: BuiltServer, runId: string): Promise<{ ids: number[]; done: string }> {
  const response = await fetch(`${node.url}/v1/research/${runId}/events`);
  const text = await response.text();
  const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
  const done = JSON.parse(sseData(text).at(-1)!) as { status: string };
  return { ids, done: done.status };
}

describe.skipIf(!available)(
  'queue mode: a worker dies or stops mid-run (real processes on 127.0.0.1)',
  () => {
    it('SIGKILL: the other worker resumes the research from its checkpoint; events arrive once, in order', async () => {
      holdOutlook = true;
      const [api1, api2] = await Promise.all([startApiNode(env), startApiNode(env)]);
      const workers = await Promise.all([
        startBuiltWorker(env, 4, ['--metrics-port', '0']),
        startBuiltWorker(env, 4, ['--metrics-port', '0']),
      ]);
      try {
        const posted = await fetch(`${api1.url}/v1/research`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: researchTopic, mode: 'research' }),
        });
        expect(posted.status).toBe(202);
        const { id } = (await posted.json()) as { id: string };
        const followed = follow(api2, id);
        // The first section is gathered and checkpointed; the second one's agent call hangs.
        await waitFor(() => agentCalls(llm.requests).some(isOutlook));
        const victim = (await holder(id, workers))!;
        expect(victim).toBeDefined();
        // Metrics: the node following the run has its event stream open; the queue has one active job.
        const nodeMetrics = await (await fetch(`${api2.url}/metrics`)).text();
        expect(sample(nodeMetrics, 'deepsearch_sse_streams_open')).toBe(1);
        expect(sample(nodeMetrics, 'deepsearch_queue_jobs', { state: 'active' })).toBe(1);
        const beforeKill = llm.requests.length;
        await victim.kill();
        const killedAt = performance.now();
        holdOutlook = false;
        // Taken over within the lock + 5 s (docs/scale-out.md): the survivor's claim is attempt 2.
        await waitFor(async () => (await attemptOf(id)) === 2, 30_000);
        const takeoverMs = performance.now() - killedAt;
        process.stderr.write(`takeover after SIGKILL: ${Math.round(takeoverMs)} ms (lock 5 s)\n`);
        expect(takeoverMs).toBeLessThan((lockSeconds + 5) * 1000);
        const { ids, done } = await followed;
        expect(done).toBe('completed');
        // Events of both attempts, ids 1..N, none missing, none twice.
        expect(ids.length).toBeGreaterThan(10);
        expect(ids).toEqual(ids.map((_, index) => index + 1));
        const survivor = workers.find((worker) => worker !== victim)!;
        expect(await holder(id, workers)).toBeUndefined(); // finished: no worker holds it
        const after = llm.requests.slice(beforeKill);
        // No planning call again, no agent call of the section gathered before the kill.
        expect(after.filter((request) => request.route === 'research_plan')).toEqual([]);
        expect(agentCalls(after).length).toBeGreaterThan(0);
        expect(agentCalls(after).every(isOutlook)).toBe(true);
        const run = (await (await fetch(`${api1.url}/v1/research/${id}`)).json()) as {
          status: string;
          result: { sections: Array<{ heading: string }> };
        };
        expect(run.status).toBe('completed');
        expect(run.result.sections.map((section) => section.heading)).toEqual(['Sales', 'Outlook']);
        const { rows } = await database.query<{ attempt: number }>('SELECT attempt FROM runs WHERE id = $1', [
          id,
        ]);
        expect(rows[0]!.attempt).toBe(2);
        expect(survivor.child.exitCode).toBeNull();
        // The workers' JSON logs: taken by the victim, resumed (attempt 2) and finished by the survivor.
        const jobLines = (worker: BuiltWorker) =>
          worker.stdout
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Record<string, unknown>)
            .filter((line) => line.runId === id);
        expect(jobLines(victim)).toEqual([
          expect.objectContaining({ level: 'info', event: 'job-taken', mode: 'research', attempt: 1 }),
        ]);
        expect(jobLines(survivor)).toEqual([
          expect.objectContaining({ event: 'job-resumed', attempt: 2, role: 'worker' }),
          expect.objectContaining({
            event: 'job-finished',
            attempt: 2,
            durationMs: expect.any(Number),
            totalTokens: expect.any(Number),
          }),
        ]);
        expect(jobLines(survivor)[1]!.totalTokens).toBeGreaterThan(0);
        // The survivor's metrics (--metrics-port): one takeover, one job finished, its LLM calls.
        const metricsUrl = /metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(survivor.stderr)![1]!;
        const workerMetrics = await (await fetch(metricsUrl)).text();
        expect(sample(workerMetrics, 'deepsearch_job_takeovers_total')).toBe(1);
        expect(sample(workerMetrics, 'deepsearch_jobs_total', { event: 'finished' })).toBe(1);
        expect(
          sample(workerMetrics, 'deepsearch_runs_finished_total', { mode: 'resume', outcome: 'completed' }),
        ).toBe(1);
        expect(
          sample(workerMetrics, 'deepsearch_llm_calls_total', { role: 'agent', outcome: 'ok' }),
        ).toBeGreaterThan(0);
        expect(sample(await (await fetch(`${api2.url}/metrics`)).text(), 'deepsearch_sse_streams_open')).toBe(
          0,
        );
      } finally {
        holdOutlook = false;
        await Promise.all([...workers.map((worker) => worker.kill()), api1.stop(), api2.stop()]);
      }
    }, 180_000);

    it('SIGTERM: the stopping worker hands the run back; the other resumes it, never cancelled', async () => {
      holdOutlook = true;
      const api = await startApiNode(env);
      const workers = await Promise.all([startBuiltWorker(env), startBuiltWorker(env)]);
      try {
        const posted = await fetch(`${api.url}/v1/research`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: researchTopic, mode: 'research' }),
        });
        const { id } = (await posted.json()) as { id: string };
        const outlookCalls = agentCalls(llm.requests).filter(isOutlook).length;
        await waitFor(async () => agentCalls(llm.requests).filter(isOutlook).length > outlookCalls);
        const planned = llm.requests.filter((request) => request.route === 'research_plan').length;
        const stopping = (await holder(id, workers))!;
        const code = await stopping.stop();
        expect(code).toBe(0);
        expect(stopping.stderr).toContain(`handed back to the queue: ${id}`);
        holdOutlook = false;
        const { done } = await follow(api, id);
        expect(done).toBe('completed');
        expect(llm.requests.filter((request) => request.route === 'research_plan')).toHaveLength(planned);
        const { rows } = await database.query<{ attempt: number; status: string }>(
          'SELECT attempt, status FROM runs WHERE id = $1',
          [id],
        );
        expect(rows[0]).toEqual({ attempt: 2, status: 'completed' });
      } finally {
        holdOutlook = false;
        await Promise.all([...workers.map((worker) => worker.kill()), api.stop()]);
      }
    }, 180_000);

    it('a cancelled research run resumed on the other node goes on from its checkpoint on a worker', async () => {
      holdOutlook = true;
      const [api1, api2] = await Promise.all([startApiNode(env), startApiNode(env)]);
      const workers = [await startBuiltWorker(env)];
      try {
        const posted = await fetch(`${api1.url}/v1/research`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: researchTopic, mode: 'research' }),
        });
        const { id } = (await posted.json()) as { id: string };
        const outlookCalls = agentCalls(llm.requests).filter(isOutlook).length;
        await waitFor(() => agentCalls(llm.requests).filter(isOutlook).length > outlookCalls);
        const cancelled = await fetch(`${api1.url}/v1/research/${id}`, { method: 'DELETE' });
        expect(await cancelled.json()).toMatchObject({ status: 'cancelled' });
        const shown = (await (await fetch(`${api2.url}/v1/research/${id}`)).json()) as { resumable: boolean };
        expect(shown.resumable).toBe(true);
        holdOutlook = false;
        const planned = llm.requests.filter((request) => request.route === 'research_plan').length;
        const before = llm.requests.length;
        const resumed = await fetch(`${api2.url}/v1/research/${id}/resume`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ budget_tokens: 3_000_000 }),
        });
        expect(resumed.status).toBe(202);
        expect(await resumed.json()).toMatchObject({ id, status: 'queued' });
        const { ids, done } = await follow(api1, id);
        expect(done).toBe('completed');
        expect(ids).toEqual(ids.map((_, index) => index + 1));
        expect(llm.requests.filter((request) => request.route === 'research_plan')).toHaveLength(planned);
        expect(agentCalls(llm.requests.slice(before)).every(isOutlook)).toBe(true);
        // Once complete, there is nothing to resume: 400 with the reason.
        const again = await fetch(`${api1.url}/v1/research/${id}/resume`, { method: 'POST' });
        expect(again.status).toBe(400);
        expect(((await again.json()) as { error: { code: string } }).error.code).toBe('run_complete');
      } finally {
        holdOutlook = false;
        await Promise.all([...workers.map((worker) => worker.kill()), api1.stop(), api2.stop()]);
      }
    }, 180_000);
  },
);

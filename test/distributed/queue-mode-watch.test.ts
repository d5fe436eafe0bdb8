// Watches in queue mode with real processes (built CLI): two API nodes and two workers on one
// Redis and one Postgres, all on 127.0.0.1. Both nodes run the watch timer over the shared store;
// each tick of a watch runs exactly once, its run going through the run queue to a worker.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase, type PostgresDatabase } from '../../src/scale/postgres/postgres-database.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type BuiltServer,
  type BuiltWorker,
  startApiNode,
  startBuiltWorker,
} from '../helpers/queue-cluster.js';
import { type QueueWorld, startQueueWorld } from '../helpers/queue-world.js';
import { researchTopic } from '../helpers/research-fake-llm.js';
import { needServices } from '../helpers/scale-services.js';

const available = needServices('redis', 'postgres');

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
type Json = Record<string, any>;

let world: QueueWorld | undefined;
let env: Record<string, string>;
let hook: FakeHttpServer | undefined;
let database: PostgresDatabase | undefined;
/** While set, the agent calls of the held question hang: the worker running it is killed meanwhile. */
let holdWatched = true;
const heldQuestion = 'How did heat pump sales in Europe change (watched)?';
let cluster: Promise<{ api1: BuiltServer; api2: BuiltServer; workers: BuiltWorker[] }> | undefined;

/** Two API nodes and two workers, shared by the tests. */
function startCluster() {
  cluster ??= (async () => {
    const [api1, api2] = await Promise.all([startApiNode(env), startApiNode(env)]);
    const workers = await Promise.all([startBuiltWorker(env), startBuiltWorker(env)]);
    started.push(api1, api2, ...workers);
    return { api1, api2, workers };
  })();
  return cluster;
}
const started: Array<BuiltServer | BuiltWorker> = [];

beforeAll(async () => {
  if (!available) return;
  world = await startQueueWorld({ hold: (request) => holdWatched && request.prompt.includes(heldQuestion) });
  database = createPostgresDatabase({ url: world.queueEnv.DEEPSEARCH_DATABASE_URL! });
  hook = await startFakeHttpServer((_request, response) => {
    response.writeHead(204);
    response.end();
  });
  env = {
    ...world.modelEnv,
    ...world.queueEnv,
    DEEPSEARCH_WATCH_MIN_INTERVAL_MS: '1000',
    DEEPSEARCH_WATCH_CHECK_MS: '100',
    // A killed worker's run is taken over within seconds.
    DEEPSEARCH_JOB_LOCK_SECONDS: '4',
  };
}, 120_000);

afterAll(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop()));
  await database?.close();
  await world?.stop();
  await hook?.close();
});

describe.skipIf(!available)('watches in queue mode', () => {
  it('runs each tick once across two API nodes and two workers, and posts each check once', async () => {
    const { api1, api2 } = await startCluster();
    const interval = 4000;
    const created = await fetch(`${api1.url}/v1/watches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        question: researchTopic,
        every: '4s',
        notify: { url: `${hook!.url}/hook`, secret: 'queue-secret' },
        notify_always: true,
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const checks = async (): Promise<Json[]> =>
      ((await (await fetch(`${api2.url}/v1/watches/${id}`)).json()) as Json).runs;
    await vi.waitUntil(async () => (await checks()).length >= 4, { timeout: 100_000, interval: 200 });
    // Stop the timers before counting: no check may be going on while the runs are counted.
    await fetch(`${api1.url}/v1/watches/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paused: true }),
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const done = (await checks()).reverse();
    expect(done.every((check) => check.status === 'ok')).toBe(true);
    // One check per tick: never two within an interval, whichever node took it.
    for (let index = 1; index < done.length; index++)
      expect(done[index]!.started_at - done[index - 1]!.started_at).toBeGreaterThanOrEqual(interval);
    // Each check started one run, run by a worker, listed on either node.
    const runs = ((await (await fetch(`${api1.url}/v1/runs?limit=100`)).json()) as Json).data as Json[];
    const runIds = new Set(done.map((check) => check.run_id));
    expect(runIds.size).toBe(done.length);
    expect(runs.filter((run) => runIds.has(run.id)).map((run) => run.status)).toEqual(
      done.map(() => 'completed'),
    );
    expect(runs.filter((run) => run.question === researchTopic)).toHaveLength(done.length);
    // notify_always: one post per check, whichever node ran it, none twice.
    const posted = hook!.requests.map((request) => (JSON.parse(request.body) as Json).run.id as string);
    expect(posted.sort()).toEqual([...runIds].sort());
  }, 180_000);

  it("takes over a check's run when its worker is killed (kill -9), and posts the check once", async () => {
    const { api1, api2, workers } = await startCluster();
    const created = await fetch(`${api2.url}/v1/watches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        question: heldQuestion,
        every: '1h',
        notify: { url: `${hook!.url}/takeover` },
        notify_always: true,
      }),
    });
    const { id } = (await created.json()) as { id: string };
    // The baseline check starts at once; its run is held on whichever worker took it.
    const held = async () => {
      const { rows } = await database!.query<{ id: string; worker: string | null }>(
        "SELECT id, worker FROM runs WHERE question = $1 AND status = 'running'",
        [heldQuestion],
      );
      const pid = rows[0]?.worker?.split(':')[1];
      const worker = workers.find((candidate) => String(candidate.child.pid) === pid);
      return worker && rows[0] ? { runId: rows[0].id, worker } : undefined;
    };
    const { runId, worker } = (await vi.waitUntil(held, { timeout: 60_000, interval: 100 }))!;
    await worker.kill();
    holdWatched = false;
    const checks = async (): Promise<Json[]> =>
      ((await (await fetch(`${api1.url}/v1/watches/${id}`)).json()) as Json).runs;
    await vi.waitUntil(async () => (await checks()).length === 1, { timeout: 90_000, interval: 200 });
    const [check] = await checks();
    expect(check).toMatchObject({ status: 'ok', run_id: runId });
    const { rows } = await database!.query<{ attempt: number; status: string }>(
      'SELECT attempt, status FROM runs WHERE id = $1',
      [runId],
    );
    expect(rows[0]).toMatchObject({ status: 'completed' });
    expect(rows[0]!.attempt).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const posts = hook!.requests.filter((request) => request.path === '/takeover');
    expect(posts.map((request) => (JSON.parse(request.body) as Json).run.id)).toEqual([runId]);
  }, 180_000);
});

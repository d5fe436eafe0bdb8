// Queue mode with real processes (built CLI: one API node, two workers) on Redis and Postgres, all
// on 127.0.0.1: Redis is restarted (losing every job: no persistence) 10 times while runs are in
// flight, and every run still completes. The workers' reconciler finds the runs Postgres says are
// running that the queue no longer knows, and puts them back; the worker that takes one fences
// whatever still ran the old attempt. The last round's runs answer slowly, so they are still
// running when the reconciler's two passes find them missing: those are surely put back.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type BuiltServer,
  type BuiltWorker,
  startApiNode,
  startBuiltWorker,
} from '../helpers/queue-cluster.js';
import { type QueueWorld, startQueueWorld } from '../helpers/queue-world.js';
import { needServices } from '../helpers/scale-services.js';

const available = needServices('redis', 'postgres');
const rounds = 10;
const lastRound = `Round ${rounds - 1}:`;

let world: QueueWorld | undefined;
let node: BuiltServer | undefined;
const workers: BuiltWorker[] = [];

beforeAll(async () => {
  if (!available) return;
  // Each agent call takes 400 ms: a run is in flight a second or two. The last round's take 3 s
  // each: those runs outlive two reconcile passes (1 s apart) after the restart that lost them.
  world = await startQueueWorld({
    hold: () => false,
    agentDelayMs: (request) => (request.prompt.includes(lastRound) ? 3000 : 400),
  });
  const env = {
    ...world.queueEnv,
    ...world.modelEnv,
    DEEPSEARCH_JOB_LOCK_SECONDS: '5',
    DEEPSEARCH_RECONCILE_SECONDS: '1',
  };
  node = await startApiNode(env);
  for (let index = 0; index < 2; index++) workers.push(await startBuiltWorker(env));
}, 120_000);

afterAll(async () => {
  await Promise.all([...workers.map((worker) => worker.stop()), node?.stop()]);
  await world?.stop();
});

/** Posts a deep search, again while the node is reconnecting to a Redis just restarted. */
async function post(question: string): Promise<string> {
  let last = '';
  for (let tries = 0; tries < 100; tries++) {
    const response = await fetch(`${node!.url}/v1/research`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question }),
    });
    const body = (await response.json()) as { id?: string };
    if (response.status === 202 && body.id) return body.id;
    last = `${response.status} ${JSON.stringify(body)}`;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`could not post a run: ${last}`);
}

async function status(id: string): Promise<string> {
  const response = await fetch(`${node!.url}/v1/research/${id}`);
  return response.ok ? ((await response.json()) as { status: string }).status : `http ${response.status}`;
}

describe.skipIf(!available)('queue mode survives Redis restarts', () => {
  it('10 restarts with runs in flight: every run completes', async () => {
    const ids: string[] = [];
    for (let round = 0; round < rounds; round++) {
      ids.push(await post(`Round ${round}: what did Acme sell in 2023?`));
      ids.push(await post(`Round ${round}: who founded Acme?`));
      // The runs are taken and running when Redis goes (and every job with it).
      await new Promise((resolve) => setTimeout(resolve, 700));
      await world!.redis.restart();
    }
    const statuses = new Map<string, string>();
    await vi
      .waitUntil(
        async () => {
          for (const id of ids) if (statuses.get(id) !== 'completed') statuses.set(id, await status(id));
          return [...statuses.values()].every((value) => value === 'completed');
        },
        { timeout: 240_000, interval: 1000 },
      )
      .catch(() => undefined);
    expect(Object.fromEntries(statuses)).toEqual(Object.fromEntries(ids.map((id) => [id, 'completed'])));
    // The workers said what they put back: at least the last round's two runs.
    const logs = workers.map((worker) => worker.stdout).join('');
    for (const id of ids.slice(-2))
      expect(logs).toContain(`run ${id} was lost by the queue (Redis restarted?): put back on it`);
  }, 360_000);
});

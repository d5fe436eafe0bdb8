// Queue mode with real processes (built CLI: one API node, one worker) on Redis and Postgres, all
// on 127.0.0.1: Redis is stopped, then Postgres, while they run. Every endpoint that needs the one
// away answers 503 with Retry-After and a message naming it and its setting (no secret, no stack),
// the access log says the same, /ready is 503 until it is back and 200 after (/health stays 200),
// and the worker says which service went away and that it came back.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type BuiltServer,
  type BuiltWorker,
  startApiNode,
  startBuiltWorker,
} from '../helpers/queue-cluster.js';
import { type QueueWorld, startQueueWorld } from '../helpers/queue-world.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { needServices } from '../helpers/scale-services.js';

const available = needServices('redis', 'postgres');

let world: QueueWorld | undefined;
let node: BuiltServer;
let worker: BuiltWorker;

beforeAll(async () => {
  if (!available) return;
  world = await startQueueWorld({ hold: () => false });
  const env = {
    ...world.queueEnv,
    ...world.modelEnv,
    DEEPSEARCH_JOB_LOCK_SECONDS: '5',
    DEEPSEARCH_LOG_FORMAT: 'json',
  };
  [node, worker] = await Promise.all([startApiNode(env), startBuiltWorker(env, 2)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([worker?.stop(), node?.stop()]);
  await world?.stop();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { error?: { message: string; type: string; code: string } };
}

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${node.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Answer['body'],
  };
}

const chat = { model: 'deepsearch', messages: [{ role: 'user', content: 'How many heat pumps?' }] };

/** The endpoints a client uses, each answered while the service is away. */
type Endpoint = 'chat' | 'post' | 'list' | 'get' | 'cancel';

async function everyEndpoint(runId: string): Promise<Record<Endpoint, Answer>> {
  const started = performance.now();
  const answered = await call('POST', '/v1/chat/completions', chat);
  process.stderr.write(`chat completion refused after ${Math.round(performance.now() - started)} ms\n`);
  return {
    chat: answered,
    post: await call('POST', '/v1/research', { question: 'Heat pump sales?' }),
    list: await call('GET', '/v1/runs'),
    get: await call('GET', `/v1/research/${runId}`),
    cancel: await call('DELETE', `/v1/research/${runId}`),
  };
}

async function completedRun(): Promise<string> {
  const posted = await call('POST', '/v1/research', { question: 'Heat pump sales in Germany?' });
  expect(posted.status).toBe(202);
  const id = (posted.body as unknown as { id: string }).id;
  await vi.waitUntil(
    async () =>
      (await call('GET', `/v1/research/${id}`)).body.error === undefined &&
      ((await call('GET', `/v1/research/${id}`)).body as unknown as { status: string }).status ===
        'completed',
    {
      timeout: 60_000,
      interval: 200,
    },
  );
  return id;
}

function expectUnavailable(answers: Record<Endpoint, Answer>, named: RegExp, which: Endpoint[]): void {
  for (const name of which) {
    const answer = answers[name];
    expect({ name, status: answer.status }).toEqual({ name, status: 503 });
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    expect(answer.body.error).toMatchObject({ type: 'server_error', code: 'service_unavailable' });
    expect(answer.body.error!.message).toMatch(named);
    expect(answer.body.error!.message).not.toMatch(/\n\s+at |ECONNREFUSED|max retries/i);
  }
}

/** The worker's log lines of a service going down or up, in order. */
function serviceLines(service: string): Array<{ event: string; msg: string }> {
  return worker.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { event: string; service?: string; msg: string })
    .filter((line) => line.service === service);
}

const readyStatus = async () => (await fetch(`${node.url}/ready`)).status;

describe.skipIf(!available)('queue mode: Redis or Postgres goes away (real processes on 127.0.0.1)', () => {
  it('Redis stopped: 503 naming the run queue and DEEPSEARCH_REDIS_URL, /ready 503, then back', async () => {
    const id = await completedRun();
    expect(await readyStatus()).toBe(200);
    const port = new URL(world!.redis.url).port;
    const named = new RegExp(
      `^the run queue \\(Redis at redis://127\\.0\\.0\\.1:${port}/?, set by DEEPSEARCH_REDIS_URL\\) can't be reached$`,
    );
    await world!.redis.halt();
    try {
      const answers = await everyEndpoint(id);
      // Posting needs the queue; reading runs stored in Postgres, or cancelling a finished one, does not.
      expectUnavailable(answers, named, ['chat', 'post']);
      expect([answers.list.status, answers.get.status, answers.cancel.status]).toEqual([200, 200, 200]);
      const ready = await call('GET', '/ready');
      expect(ready.status).toBe(503);
      expect(ready.retryAfter).not.toBeNull();
      expect(ready.body.error!.message).toMatch(named);
      expect((await fetch(`${node.url}/health`)).status).toBe(200);
      // The access log line of the refused request says the same.
      const refused = node.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.path === '/v1/chat/completions' && line.status === 503);
      expect(refused).toMatchObject({ errorCode: 'service_unavailable' });
      expect(String(refused!.error)).toMatch(named);
      await vi.waitUntil(() => serviceLines('redis').length > 0, { timeout: 15_000 });
    } finally {
      await world!.redis.resume();
    }
    await vi.waitUntil(async () => (await readyStatus()) === 200, { timeout: 20_000, interval: 250 });
    await completedRun();
    await vi.waitUntil(() => serviceLines('redis').length > 1, { timeout: 15_000 });
    // Logged once each way, however many calls failed meanwhile.
    expect(serviceLines('redis')).toEqual([
      expect.objectContaining({ event: 'service-down', msg: expect.stringMatching(named) }),
      expect.objectContaining({
        event: 'service-up',
        msg: expect.stringMatching(/^the run queue \(Redis at .*\) is reachable again$/),
      }),
    ]);
  }, 150_000);

  it('Postgres stopped: 503 naming the run store and DEEPSEARCH_DATABASE_URL, /ready 503, then back', async () => {
    const id = await completedRun();
    const { port } = new URL(world!.queueEnv.DEEPSEARCH_DATABASE_URL!);
    const named = new RegExp(
      `^the run store \\(Postgres at postgres://\\*\\*\\*@127\\.0\\.0\\.1:${port}/test_\\w+, set by DEEPSEARCH_DATABASE_URL\\) can't be reached$`,
    );
    await world!.postgres.halt();
    try {
      expectUnavailable(await everyEndpoint(id), named, ['chat', 'post', 'list', 'get', 'cancel']);
      const ready = await call('GET', '/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.error!.message).toMatch(named);
      expect((await fetch(`${node.url}/health`)).status).toBe(200);
      // The CLI in queue mode exits "unavailable" (69), naming the database and its setting.
      const listed = await runBuiltCli(['runs', 'list'], world!.queueEnv, { timeoutMs: 60_000 });
      expect(listed.code).toBe(69);
      expect(listed.stderr).toMatch(
        /postgres:\/\/\*\*\*@127\.0\.0\.1:\d+\/test_\w+.*DEEPSEARCH_DATABASE_URL/,
      );
      await vi.waitUntil(() => serviceLines('postgres').length > 0, { timeout: 15_000 });
    } finally {
      await world!.postgres.resume();
    }
    await vi.waitUntil(async () => (await readyStatus()) === 200, { timeout: 20_000, interval: 250 });
    await completedRun();
    await vi.waitUntil(() => serviceLines('postgres').length > 1, { timeout: 15_000 });
    expect(serviceLines('postgres')).toEqual([
      expect.objectContaining({ event: 'service-down', msg: expect.stringMatching(named) }),
      expect.objectContaining({ event: 'service-up', msg: expect.stringMatching(/is reachable again$/) }),
    ]);
  }, 150_000);
});

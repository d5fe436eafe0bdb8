// Queue mode with real processes (built CLI) on one Redis and one Postgres, all on 127.0.0.1: a
// run waits for a worker without calling the LLM, a cancel on any API node stops it wherever it
// is, a full queue answers 429, and a chat completion streamed through the queue is the one a
// server running it in-process streams.
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import type { FakeOpenAiServer } from '../../src/testing/fake-openai-server.js';
import {
  type BuiltServer,
  type BuiltWorker,
  startApiNode,
  startBuiltWorker,
} from '../helpers/queue-cluster.js';
import { type QueueWorld, startQueueWorld } from '../helpers/queue-world.js';
import { researchTopic } from '../helpers/research-fake-llm.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { needServices, type RunningService, startRedis } from '../helpers/scale-services.js';
import { sseData } from '../helpers/server-harness.js';

const available = needServices('redis', 'postgres');

const waitFor = <T>(probe: () => T | Promise<T>, timeout = 60_000) =>
  vi.waitUntil(probe, { timeout, interval: 50 });
/** A question whose agent calls hang until released: a run that is surely running. */
const slowQuestion = 'What is the slowest question?';

let world: QueueWorld | undefined;
let redis: RunningService | undefined;
let web: FakeHttpServer;
let llm: FakeOpenAiServer;
let baseEnv: Record<string, string>;
let queueEnv: Record<string, string>;
const started: Array<BuiltServer | BuiltWorker> = [];

beforeAll(async () => {
  if (!available) return;
  world = await startQueueWorld({ hold: (request) => request.prompt.includes(slowQuestion) });
  ({ redis, web, llm } = world);
  baseEnv = world.modelEnv;
  queueEnv = { ...baseEnv, ...world.queueEnv, DEEPSEARCH_JOB_LOCK_SECONDS: '2' };
}, 120_000);

afterEach(async () => {
  await Promise.all(started.splice(0).map((process) => process.stop()));
  if (!redis) return;
  // Each test starts with an empty queue.
  const client = new Redis(redis.url);
  await client.flushall();
  client.disconnect();
});

afterAll(async () => {
  await world?.stop();
});

async function api(env: Record<string, string> = queueEnv): Promise<BuiltServer> {
  const node = await startApiNode(env);
  started.push(node);
  return node;
}

async function worker(): Promise<BuiltWorker> {
  const process = await startBuiltWorker(queueEnv);
  started.push(process);
  return process;
}

function post(node: BuiltServer, question: string): Promise<Response> {
  return fetch(`${node.url}/v1/research`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question }),
  });
}

async function status(node: BuiltServer, id: string): Promise<string> {
  return ((await (await fetch(`${node.url}/v1/research/${id}`)).json()) as { status: string }).status;
}

describe.skipIf(!available)('queue mode API nodes (real processes on 127.0.0.1)', () => {
  it('with no worker a run stays queued and calls no LLM; DELETE on the other node removes it', async () => {
    const [api1, api2] = await Promise.all([api(), api()]);
    const calls = llm.requests.length;
    const posted = await post(api1, researchTopic);
    expect(posted.status).toBe(202);
    const { id, status: first } = (await posted.json()) as { id: string; status: string };
    expect(first).toBe('queued');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await status(api2, id)).toBe('queued');
    expect(llm.requests.length).toBe(calls);
    const deleted = await fetch(`${api2.url}/v1/research/${id}`, { method: 'DELETE' });
    expect(await deleted.json()).toMatchObject({ id, status: 'cancelled' });
    expect(await status(api1, id)).toBe('cancelled');
    // A worker started now finds nothing to run.
    await worker();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(llm.requests.length).toBe(calls);
  }, 120_000);

  it('POST on one node, DELETE on the other: the worker stops the run, no LLM call after', async () => {
    const [api1, api2] = await Promise.all([api(), api()]);
    await worker();
    const { id } = (await (await post(api1, slowQuestion)).json()) as { id: string };
    await waitFor(() => llm.requests.some((request) => request.prompt.includes(slowQuestion)));
    const deleted = await fetch(`${api2.url}/v1/research/${id}`, { method: 'DELETE' });
    expect(await deleted.json()).toMatchObject({ id, status: 'cancelled' });
    const calls = llm.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(llm.requests.length).toBe(calls);
    expect(await status(api1, id)).toBe('cancelled');
  }, 120_000);

  it('a full queue answers 429 server_busy, a key at its limit 429 owner_busy, each with Retry-After', async () => {
    const full = await api({ ...queueEnv, DEEPSEARCH_QUEUE_MAX: '1' });
    expect((await post(full, 'first question')).status).toBe(202);
    const refused = await post(full, 'second question');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('server_busy');
    const limited = await api({ ...queueEnv, DEEPSEARCH_QUEUE_MAX: '10', DEEPSEARCH_MAX_JOBS_PER_KEY: '1' });
    const busy = await post(limited, 'third question');
    expect(busy.status).toBe(429);
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('owner_busy');
  }, 120_000);

  it('a chat completion streamed through the queue is the one streamed in-process, chunk for chunk', async () => {
    const inProcess = await api(baseEnv);
    const queued = await api();
    await worker();
    const chunks = async (node: BuiltServer) => {
      const response = await fetch(`${node.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'deepsearch',
          stream: true,
          messages: [{ role: 'user', content: researchTopic }],
        }),
      });
      expect(response.status).toBe(200);
      // Only what differs between any two runs is left out: the ids, the times, the run's duration.
      return sseData(await response.text()).map((data) => {
        if (data === '[DONE]') return data;
        const timeless = data.replace(/"duration_ms":\d+/g, '"duration_ms":0');
        const { id: _id, created: _created, ...chunk } = JSON.parse(timeless) as Record<string, unknown>;
        return chunk;
      });
    };
    const local = await chunks(inProcess);
    const remote = await chunks(queued);
    expect(local.length).toBeGreaterThan(3);
    expect(remote).toEqual(local);
  }, 120_000);

  it('an outline planned on one node is followed by the worker; the report is served by the other node', async () => {
    const [api1, api2] = await Promise.all([api(), api()]);
    const json = { 'content-type': 'application/json' };
    const planned = await fetch(`${api1.url}/v1/research/outline`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ question: researchTopic }),
    });
    expect(planned.status).toBe(200);
    const outline = (await planned.json()) as {
      object: string;
      plan: { title: string; sections: Array<{ heading: string }> };
    };
    expect(outline.object).toBe('research.outline');
    expect(outline.plan.sections.length).toBeGreaterThan(0);
    await worker();
    const edited = { ...outline.plan, title: 'Heat pumps, as edited' };
    const posted = await fetch(`${api1.url}/v1/research`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ question: researchTopic, mode: 'research', outline: edited }),
    });
    expect(posted.status).toBe(202);
    const { id } = (await posted.json()) as { id: string };
    await waitFor(async () => (await status(api2, id)) === 'completed', 110_000);
    const detail = (await (await fetch(`${api2.url}/v1/research/${id}`)).json()) as {
      result: { title: string };
      report_formats: string[];
    };
    // The worker wrote the report from the edited outline, not from a plan of its own.
    expect(detail.result.title).toBe('Heat pumps, as edited');
    expect(detail.report_formats).toEqual(expect.arrayContaining(['md', 'html', 'json']));
    const report = await fetch(`${api2.url}/v1/research/${id}/report?format=md`);
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await report.text()).toContain('# Heat pumps, as edited');
    // What the worker read of the cited sources is in Postgres: the other node serves it.
    const evidence = (await (await fetch(`${api2.url}/v1/runs/${id}/evidence`)).json()) as {
      sources: Array<{ url: string; accessed_at: string; hash: string }>;
    };
    expect(evidence.sources.length).toBeGreaterThan(0);
    for (const source of evidence.sources) {
      expect(source.url.startsWith(web.url)).toBe(true);
      expect(source.hash).toMatch(/^[0-9a-f]{64}$/);
    }
    const source = (await (await fetch(`${api1.url}/v1/runs/${id}/sources/1`)).json()) as {
      text: string;
      quote: string;
      quote_start: number;
      quote_end: number;
    };
    expect(source.text.slice(source.quote_start, source.quote_end)).toBe(source.quote);
  }, 120_000);

  it('ids that are no run (a NUL byte, 300 characters) are 404 and a NUL in a search 400, before Postgres is asked', async () => {
    const node = await api();
    for (const id of ['run_x%00', '%00', `run_${'x'.repeat(300)}`]) {
      const response = await fetch(`${node.url}/v1/research/${id}`);
      expect(response.status, id).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('run_not_found');
      expect((await fetch(`${node.url}/v1/research/${id}/events`)).status, id).toBe(404);
    }
    const search = await fetch(`${node.url}/v1/runs?q=a%00b`);
    expect(search.status).toBe(400);
    expect((await fetch(`${node.url}/health`)).status).toBe(200);
  });

  it('doctor checks Redis and Postgres; a worker without queue mode, or one URL alone, is refused naming what to set', async () => {
    const doctor = await runBuiltCli(['doctor', '--page', `${web.url}/ehpa`], queueEnv, {
      timeoutMs: 60_000,
    });
    expect(doctor.stdout).toMatch(
      /^ok\s+redis\s+redis:\/\/127\.0\.0\.1:\d+: Redis [\d.]+, maxmemory-policy noeviction, AOF off/m,
    );
    expect(doctor.stdout).toMatch(
      /^ok\s+postgres\s+postgres:\/\/\*\*\*@127\.0\.0\.1:\d+\/\w+: Postgres 1\d[\d.]*, schema up to date, \d+ run\(s\) kept/m,
    );
    const evicting = await startRedis({ 'maxmemory-policy': 'allkeys-lru' });
    try {
      const refused = await runBuiltCli(
        ['doctor', '--page', `${web.url}/ehpa`],
        { ...queueEnv, DEEPSEARCH_REDIS_URL: evicting.url },
        { timeoutMs: 60_000 },
      );
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).toMatch(
        /^FAIL\s+redis\s+.*maxmemory-policy allkeys-lru: queue mode needs noeviction/m,
      );
    } finally {
      await evicting.stop();
    }
    const alone = await runBuiltCli(['worker'], baseEnv);
    expect(alone.code).not.toBe(0);
    expect(alone.stderr).toContain('deepsearch worker runs jobs of queue mode: set DEEPSEARCH_REDIS_URL');
    const half = await runBuiltCli(['worker'], { ...baseEnv, DEEPSEARCH_REDIS_URL: redis!.url });
    expect(half.code).not.toBe(0);
    expect(half.stderr).toContain('DEEPSEARCH_DATABASE_URL is not set');
    const halfServe = await runBuiltCli(['serve', '--port', '0'], {
      ...baseEnv,
      DEEPSEARCH_DATABASE_URL: queueEnv.DEEPSEARCH_DATABASE_URL!,
    });
    expect(halfServe.code).not.toBe(0);
    expect(halfServe.stderr).toContain('DEEPSEARCH_REDIS_URL is not set');
  }, 180_000);
});

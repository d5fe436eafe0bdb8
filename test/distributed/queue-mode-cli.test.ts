// The CLI on a deployment's runs (built CLI, real processes on 127.0.0.1): with both URLs set,
// `deepsearch runs list/show/export`, `replay` and `trust` read Postgres (a run nobody holds reads
// as interrupted), and `deepsearch resume` puts a run back on the queue, where a worker goes on
// with it from its checkpoint while the CLI, which has no model of its own, shows its progress.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeOpenAiRequest, FakeOpenAiServer } from '../../src/testing/fake-openai-server.js';
import {
  type BuiltServer,
  type BuiltWorker,
  startApiNode,
  startBuiltWorker,
} from '../helpers/queue-cluster.js';
import { type QueueWorld, startQueueWorld } from '../helpers/queue-world.js';
import { isOutlook, researchPlanWithOutlook, researchTopic } from '../helpers/research-fake-llm.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { needServices, type RunningService } from '../helpers/scale-services.js';

const available = needServices('redis', 'postgres');

const isOutlookAgentCall = (request: FakeOpenAiRequest) =>
  request.route === 'agent_action' && isOutlook(request);
const waitFor = <T>(probe: () => T | Promise<T>, timeout = 60_000) =>
  vi.waitUntil(probe, { timeout, interval: 100 });

let world: QueueWorld | undefined;
let redis: RunningService | undefined;
let llm: FakeOpenAiServer;
let workerEnv: Record<string, string>;
/** The CLI's: the deployment's URLs, no model and no search (the worker has them). */
let cliEnv: Record<string, string>;
let api: BuiltServer;
let worker: BuiltWorker | undefined;
/** While set, the outlook section's agent calls hang. */
let holdOutlook = false;

beforeAll(async () => {
  if (!available) return;
  world = await startQueueWorld({
    plan: researchPlanWithOutlook,
    hold: (request) => holdOutlook && isOutlookAgentCall(request),
  });
  ({ redis, llm } = world);
  cliEnv = world.queueEnv;
  workerEnv = {
    ...cliEnv,
    ...world.modelEnv,
    DEEPSEARCH_JOB_LOCK_SECONDS: '5',
    DEEPSEARCH_RESEARCH_CONCURRENCY: '1',
    DEEPSEARCH_RESEARCH_MAX_HOPS: '1',
  };
  api = await startApiNode(workerEnv);
}, 120_000);

afterAll(async () => {
  await Promise.all([worker?.stop(), api?.stop()]);
  await world?.stop();
});

async function post(body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${api.url}/v1/research`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

async function cli(args: string[]) {
  const run = await runBuiltCli(args, cliEnv, { timeoutMs: 120_000 });
  return { ...run, json: () => JSON.parse(run.stdout) as unknown };
}

const runStatus = async (id: string) =>
  ((await (await fetch(`${api.url}/v1/research/${id}`)).json()) as { status: string }).status;

describe.skipIf(!available)('the CLI on a queue-mode deployment (real processes on 127.0.0.1)', () => {
  it('runs list shows a queued run, then interrupted once its job is gone', async () => {
    const id = await post({ question: 'A question nobody runs' });
    const listed = await cli(['runs', 'list', '--json']);
    expect(listed.stderr).toBe('');
    expect(listed.json()).toEqual([expect.objectContaining({ id, status: 'queued', source: 'research' })]);
    // Redis loses the job (no AOF, a restart): the run is held by nobody.
    const client = new Redis(redis!.url);
    await client.flushall();
    client.disconnect();
    const after = await cli(['runs', 'list']);
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(new RegExp(`^${id.slice(0, 12)}\\s.*\\sinterrupted\\s`, 'm'));
    const deleted = await cli(['runs', 'delete', id]);
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain(`deleted run ${id}`);
    expect((await cli(['runs', 'list', '--json'])).json()).toEqual([]);
  }, 180_000);

  it('runs show/export, replay and trust read what a worker stored in Postgres', async () => {
    worker ??= await startBuiltWorker(workerEnv);
    const id = await post({ question: researchTopic });
    await waitFor(async () => (await runStatus(id)) === 'completed');
    const show = await cli(['runs', 'show', id.slice(0, 12)]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`run       ${id}`);
    expect(show.stdout).toMatch(/^status {4}completed/m);
    expect(show.stdout).toContain(`question  ${researchTopic}`);
    const exported = (await cli(['runs', 'export', id, '--format', 'json'])).json() as {
      run: { id: string };
      events: Array<{ seq: number; type: string }>;
    };
    expect(exported.run.id).toBe(id);
    expect(exported.events.map((event) => event.seq)).toEqual(exported.events.map((_, index) => index + 1));
    expect(exported.events.at(-1)!.type).toBe('run-end');
    const replayed = (await cli(['replay', id, '--json'])).json() as { answer: string };
    expect(replayed.answer).toContain('3 million');
    const trust = (await cli(['trust', 'list', '--json'])).json() as {
      file: string;
      domains: Array<{ host: string; successes: number; references: number }>;
    };
    // Where the profiles are, its password-less URL; the pages the worker read and cited.
    expect(trust.file).toMatch(/^postgres:\/\/.*127\.0\.0\.1:\d+\//);
    expect(trust.domains).toEqual([expect.objectContaining({ host: '127.0.0.1' })]);
    expect(trust.domains[0]!.successes).toBeGreaterThan(0);
    expect(trust.domains[0]!.references).toBeGreaterThan(0);
    const missing = await cli(['runs', 'show', 'no-such-run']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("no run 'no-such-run' (deepsearch runs list shows the runs kept)");
  }, 180_000);

  it('resume puts a cancelled research run back on the queue; a worker goes on from its checkpoint', async () => {
    worker ??= await startBuiltWorker(workerEnv);
    holdOutlook = true;
    const id = await post({ question: researchTopic, mode: 'research' });
    // The first section is gathered and checkpointed; the second one's agent call hangs.
    await waitFor(() => llm.requests.some(isOutlookAgentCall));
    const deleted = await fetch(`${api.url}/v1/research/${id}`, { method: 'DELETE' });
    expect(await deleted.json()).toMatchObject({ id, status: 'cancelled' });
    holdOutlook = false;
    const before = llm.requests.length;
    const resumed = await cli(['resume', id.slice(0, 12), '--quiet']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    // The report, as `research` prints it; written by the worker (the CLI has no model).
    expect(resumed.stdout).toContain('## Outlook');
    expect(resumed.stdout).toContain('## Sales');
    const after = llm.requests.slice(before);
    expect(after.filter((request) => request.route === 'research_plan')).toEqual([]);
    expect(after.filter((request) => request.route === 'agent_action').every(isOutlookAgentCall)).toBe(true);
    const shown = (await cli(['runs', 'show', id, '--json'])).json() as { status: string; attempt: number };
    expect(shown).toMatchObject({ status: 'completed', attempt: 2 });
    const again = await cli(['resume', id]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(
      `run ${id} is complete: its report is written, so there is nothing to resume`,
    );
  }, 240_000);

  it('a worker with --health-port answers GET /health: 200 while it takes jobs, nothing once it stopped', async () => {
    const healthy = await startBuiltWorker(workerEnv, 1, ['--health-port', '0']);
    try {
      const url = /health at (http:\/\/127\.0\.0\.1:\d+\/health)/.exec(healthy.stderr)?.[1];
      expect(url).toBeDefined();
      const answer = await fetch(url!);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ status: 'ok', role: 'worker' });
      expect((await fetch(url!.replace('/health', '/other'))).status).toBe(404);
      expect(await healthy.stop()).toBe(0);
      await expect(fetch(url!)).rejects.toThrow();
    } finally {
      await healthy.kill();
    }
    const refused = await runBuiltCli(['worker', '--health-port', 'x'], workerEnv);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('expected a port from 0 to 65535 (got "x")');
  }, 120_000);
});

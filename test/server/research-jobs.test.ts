import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeepSearchConfig } from '../../src/config/config-schema.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import {
  type FakeOpenAiReply,
  type FakeOpenAiRequest,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import {
  researchPlanReply,
  researchRoutes,
  researchSearchAndReader,
  researchTopic,
} from '../helpers/research-fake-llm.js';
import { waitFor } from '../helpers/server-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
type Json = Record<string, any>;

const webUrl = 'https://research.example';
let llm: FakeOpenAiServer;
let server: RunningServer;
const { search, reader } = researchSearchAndReader(webUrl);

beforeAll(async () => {
  llm = await startFakeOpenAi({ routes: researchRoutes(webUrl) });
  const config = createTestConfig({
    llm: { baseURL: `${llm.url}/v1`, model: 'fake-model' },
    server: { port: 0 },
    runs: { file: ':memory:' },
  });
  server = await startServer({
    runtime: createRuntime({ config, search, reader }),
    settings: config.server,
    log: () => {},
  });
});

afterAll(async () => {
  await server.close({ graceMs: 0 });
  await llm.close();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}/v1${path}`, { ...init, headers: { 'content-type': 'application/json' } });

describe('research jobs through the async run API', () => {
  it('runs mode research to its report, stores every event of the task in one sequence, and replays them', async () => {
    const created = (await (
      await api('/research', {
        method: 'POST',
        body: JSON.stringify({ question: researchTopic, mode: 'research' }),
      })
    ).json()) as Json;
    expect(created).toMatchObject({ object: 'run', mode: 'research', question: researchTopic });
    let done: Json = {};
    for (let tries = 0; tries < 500 && done.status !== 'completed'; tries++) {
      done = (await (await api(`/research/${created.id}`)).json()) as Json;
      if (done.status === 'failed') throw new Error(JSON.stringify(done.error));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(done.status).toBe('completed');
    expect(done.result.title).toBe('European heat pump sales after 2022');
    expect(done.result.markdown).toContain('## Sales');
    expect(done.usage.total_tokens).toBe(done.result.usage.totalTokens);

    const text = await (await api(`/research/${created.id}/events`)).text();
    const events = text
      .split('\n\n')
      .map((block) => /^data: (.*)$/m.exec(block)?.[1])
      .filter((data): data is string => data !== undefined)
      .map((data) => JSON.parse(data) as Json)
      .filter((event) => event.type !== undefined);
    // The task's own events and its sections' (their own run ids), in one increasing sequence.
    const seqs = events.map((event) => event.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    const runIds = new Set(events.map((event) => event.runId));
    expect(runIds.has(created.id)).toBe(true);
    expect(runIds.size).toBeGreaterThan(1);
    expect(events.some((event) => event.type === 'persona')).toBe(true);
    expect(events.some((event) => event.type === 'search-end' && event.runId !== created.id)).toBe(true);
    expect(events.at(-1)?.type).toBe('research-end');

    // A client that reconnects after event 3 gets exactly the rest.
    const after = await (
      await fetch(`${server.url}/v1/research/${created.id}/events`, { headers: { 'last-event-id': '3' } })
    ).text();
    expect(after.match(/^id: (\d+)$/m)?.[1]).toBe('4');

    const listed = (await (await api('/runs')).json()) as Json;
    expect(listed.data.find((run: Json) => run.id === created.id)).toMatchObject({ mode: 'research' });
    // A research run that ended with its report has nothing to resume.
    const resumed = await api(`/research/${created.id}/resume`, { method: 'POST', body: '{}' });
    expect(resumed.status).toBe(400);
    expect(((await resumed.json()) as Json).error.code).toBe('run_complete');
  });

  it('POST /v1/research/{id}/resume goes on with a cancelled research job from its last section, with a raised budget', async () => {
    const outlook = 'What is the outlook for heat pumps in Europe?';
    const plan = {
      ...researchPlanReply,
      sections: [...researchPlanReply.sections, { heading: 'Outlook', questions: [outlook] }],
    };
    const routes = researchRoutes(webUrl);
    const agent = routes.agent_action as (request: FakeOpenAiRequest) => FakeOpenAiReply;
    let cancelled = false;
    const isOutlook = (request: FakeOpenAiRequest) =>
      request.route === 'agent_action' && request.prompt.includes(outlook);
    const sectionLlm = await startFakeOpenAi({
      routes: {
        ...routes,
        research_plan: () => ({
          content: JSON.stringify(plan),
          usage: { prompt_tokens: 9, completion_tokens: 9 },
        }),
        // Cut by the cancel while the second section's first agent call waits.
        agent_action: (request) => (!cancelled && isOutlook(request) ? { delayMs: 20_000 } : agent(request)),
      },
    });
    const dir = mkdtempSync(join(tmpdir(), 'deepsearch-research-jobs-'));
    const serverWith = (research: Partial<DeepSearchConfig['research']>) => {
      const config = createTestConfig({
        llm: { baseURL: `${sectionLlm.url}/v1`, model: 'fake-model' },
        server: { port: 0 },
        runs: { file: join(dir, 'runs.sqlite') },
        research,
      });
      return startServer({
        runtime: createRuntime({ config, search, reader }),
        settings: config.server,
        log: () => {},
      });
    };
    const config = createTestConfig({});
    const own = await serverWith({ concurrency: 1, maxHops: 1, writerShare: 0.3 });
    // The run is resumed by a server started later with other research settings (same run store).
    const later = await serverWith({ concurrency: 4, maxHops: 3, writerShare: 0.5 });
    const fetchFrom =
      (server: RunningServer) =>
      (path: string, init: RequestInit = {}) =>
        fetch(`${server.url}/v1${path}`, { ...init, headers: { 'content-type': 'application/json' } });
    let call = fetchFrom(own);
    try {
      const created = (await (
        await call('/research', {
          method: 'POST',
          body: JSON.stringify({ question: researchTopic, mode: 'research' }),
        })
      ).json()) as Json;
      await waitFor(() => sectionLlm.requests.some(isOutlook), 10_000);
      await call(`/research/${created.id}`, { method: 'DELETE' });
      cancelled = true;
      expect(((await (await call(`/research/${created.id}`)).json()) as Json).status).toBe('cancelled');
      const before = sectionLlm.requests.length;
      const raised = config.budget.maxTokens * 2;
      call = fetchFrom(later);
      const resumed = await call(`/research/${created.id}/resume`, {
        method: 'POST',
        body: JSON.stringify({ budget_tokens: raised }),
      });
      expect(resumed.status).toBe(202);
      let done: Json = {};
      for (let tries = 0; tries < 500 && done.status !== 'completed'; tries++) {
        done = (await (await call(`/research/${created.id}`)).json()) as Json;
        if (done.status === 'failed') throw new Error(JSON.stringify(done.error));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(done.status).toBe('completed');
      expect(done.result.sections.map((section: Json) => section.heading)).toEqual(['Sales', 'Outlook']);
      expect(done.result.budget.maxTokens).toBe(raised);
      const after = sectionLlm.requests.slice(before);
      // No planning again, and only the second section's deep search asked the agent.
      expect(after.filter((request) => request.route === 'research_plan')).toEqual([]);
      const agentAfter = after.filter((request) => request.route === 'agent_action');
      expect(agentAfter.length).toBeGreaterThan(0);
      expect(agentAfter.every(isOutlook)).toBe(true);
      const text = await (await call(`/research/${created.id}/events`)).text();
      const seqs = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
      expect(seqs.length).toBeGreaterThan(20);
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));
      // Both processes researched with the run's own settings: one section at a time, one hop each.
      const planned = [...text.matchAll(/"message":"(researching \d+ section[^"]*)"/g)].map(
        (match) => match[1],
      );
      expect(planned).toEqual([
        'researching 2 section(s), 1 at a time, up to 1 hop(s) each; 30% of the budget is kept for writing',
        'researching 1 section(s), 1 at a time, up to 1 hop(s) each; 30% of the budget is kept for writing',
      ]);
    } finally {
      await Promise.all([own.close({ graceMs: 0 }), later.close({ graceMs: 0 })]);
      await sectionLlm.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

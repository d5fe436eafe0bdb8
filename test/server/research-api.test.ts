import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRunStore } from '../../src/runs/run-store.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { citedRun } from '../helpers/server-fixtures.js';
import { startTestServer, type TestServer, waitFor } from '../helpers/server-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
type Json = Record<string, any>;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const key = 'sk-test-key-one';
const otherKey = 'sk-test-key-two';

function api(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  if (init.body) headers.set('content-type', 'application/json');
  return fetch(`${server!.url}/v1${path}`, { ...init, headers });
}

async function create(body: Record<string, unknown>, apiKey?: string) {
  const response = await api('/research', { method: 'POST', body: JSON.stringify(body), key: apiKey });
  return { status: response.status, body: (await response.json()) as Json };
}

/** The SSE events of a body: {id, event, data} each, comments left out. */
function sseEvents(text: string): Array<{ id?: string; event?: string; data: Json }> {
  return text
    .split('\n\n')
    .map((block) => {
      const fields: Record<string, string> = {};
      for (const line of block.split('\n')) {
        const match = /^(id|event|data): ?(.*)$/.exec(line);
        if (match) fields[match[1]!] = match[2]!;
      }
      return fields;
    })
    .filter((fields) => fields.data !== undefined)
    .map((fields) => ({ id: fields.id, event: fields.event, data: JSON.parse(fields.data!) }));
}

async function waitForStatus(id: string, status: string, apiKey?: string): Promise<Json> {
  let body: Json = {};
  for (let tries = 0; tries < 300; tries++) {
    body = (await (await api(`/research/${id}`, { key: apiKey })).json()) as Json;
    if (body.status === status) return body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`run ${id} is ${body.status}, not ${status}`);
}

describe('the async run API (POST/GET/DELETE /v1/research, SSE events, /v1/runs)', () => {
  it('runs a job to its result, replays every event in order, and lists it', async () => {
    server = await startTestServer({
      steps: citedRun.steps(),
      search: citedRun.search,
      pages: citedRun.pages,
    });
    const created = await create({ question: citedRun.question, max_steps: 10 });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ object: 'run', mode: 'search', question: citedRun.question });
    expect(created.body.id).toMatch(/^run_[0-9a-f-]{36}$/);
    expect(['queued', 'running']).toContain(created.body.status);
    const done = await waitForStatus(created.body.id, 'completed');
    expect(done.result.answer).toContain('Peter Farrelly');
    expect(done.result.runId).toBe(created.body.id);
    expect(done.result.references).toHaveLength(2);
    expect(done.options).toEqual({ max_steps: 10 });
    expect(done.usage.total_tokens).toBe(done.result.usage.totalTokens);
    expect(done.usage.cost_usd).toBeNull();
    expect(done.finished_at).toBeGreaterThanOrEqual(done.created_at);

    const replay = await api(`/research/${created.body.id}/events`);
    expect(replay.headers.get('content-type')).toContain('text/event-stream');
    const events = sseEvents(await replay.text());
    const last = events.at(-1)!;
    expect(last).toMatchObject({ event: 'done', data: { status: 'completed' } });
    const runEvents = events.slice(0, -1);
    expect(runEvents.map((event) => event.data.seq)).toEqual(runEvents.map((_, index) => index + 1));
    expect(
      runEvents.every((event) => event.id === String(event.data.seq) && event.event === event.data.type),
    ).toBe(true);
    expect(runEvents.map((event) => event.event)).toContain('search-end');
    expect(runEvents.at(-1)!.data.type).toBe('run-end');

    const list = (await (await api('/runs?limit=5')).json()) as Json;
    expect(list).toMatchObject({ object: 'list', has_more: false });
    expect(list.data[0]).toMatchObject({ id: created.body.id, status: 'completed', mode: 'search' });
    expect(list.data[0].answer_preview).toContain('Peter Farrelly');
    const searched = (await (await api('/runs?q=Farrelly')).json()) as Json;
    expect(searched.data).toHaveLength(1);
    const missed = (await (await api('/runs?q=nothing-like-this')).json()) as Json;
    expect(missed.data).toEqual([]);

    const deleted = await api(`/research/${created.body.id}`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ id: created.body.id, object: 'run', deleted: true });
    expect((await api(`/research/${created.body.id}`)).status).toBe(404);
  });

  it('a client that leaves /events and comes back with Last-Event-ID gets exactly the events it missed', async () => {
    server = await startTestServer({
      search: citedRun.search,
      pages: citedRun.pages,
      steps: citedRun.steps().map((step, index) => (index === 1 ? { ...step, delayMs: 400 } : step)),
    });
    const { body } = await create({ question: citedRun.question });
    // First connection: read until the search step ended, then hang up.
    const controller = new AbortController();
    const first = await api(`/research/${body.id}/events`, { signal: controller.signal });
    const reader = first.body!.getReader();
    let text = '';
    while (!text.includes('event: search-end')) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    const seen = sseEvents(text.slice(0, text.lastIndexOf('\n\n') + 2));
    const lastId = seen.at(-1)!.id!;
    // The job goes on without any client.
    await waitForStatus(body.id, 'completed');
    const second = await api(`/research/${body.id}/events`, { headers: { 'last-event-id': lastId } });
    const rest = sseEvents(await second.text());
    const all = sseEvents(await (await api(`/research/${body.id}/events`)).text());
    expect([...seen, ...rest].map((event) => event.id)).toEqual(all.map((event) => event.id));
    expect(rest[0]!.data.seq).toBe(Number(lastId) + 1);
    const viaQuery = sseEvents(await (await api(`/runs/${body.id}/events?after=${lastId}`)).text());
    expect(viaQuery.map((event) => event.id)).toEqual(rest.map((event) => event.id));
  });

  it('DELETE cancels a running job within a second: no LLM call starts after it', async () => {
    server = await startTestServer({
      search: citedRun.search,
      steps: [
        scriptedStep.search(['Parasite premiere']),
        { ...scriptedStep.answer('late'), delayMs: 20_000 },
      ],
    });
    const { body } = await create({ question: citedRun.question });
    await waitFor(() => server!.llm.calls.length === 2, 5000);
    const started = Date.now();
    const cancelled = await api(`/research/${body.id}`, { method: 'DELETE' });
    expect(await cancelled.json()).toEqual({ id: body.id, object: 'run', status: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await waitForStatus(body.id, 'cancelled')).status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.llm.calls).toHaveLength(2);
    expect(await (await fetch(`${server.url}/ready`)).json()).toMatchObject({ running: 0 });
  });

  it('a run is visible only with the key that created it: another key gets 404 everywhere', async () => {
    server = await startTestServer({
      apiKey: key,
      server: { apiKeys: [key, otherKey] },
      steps: [scriptedStep.answer('2')],
    });
    const { body } = await create({ question: 'What is 1+1?' }, key);
    await waitForStatus(body.id, 'completed', key);
    for (const path of [`/research/${body.id}`, `/runs/${body.id}`, `/research/${body.id}/events`]) {
      const response = await api(path, { key: otherKey });
      expect(response.status).toBe(404);
      expect(((await response.json()) as Json).error).toMatchObject({
        type: 'not_found_error',
      });
    }
    expect((await api(`/research/${body.id}`, { method: 'DELETE', key: otherKey })).status).toBe(404);
    expect(((await (await api('/runs', { key: otherKey })).json()) as Json).data).toEqual([]);
    expect(((await (await api('/runs', { key })).json()) as Json).data).toHaveLength(1);
    expect((await api('/runs')).status).toBe(401);
  });

  it('bad input gets a 400 OpenAI-style error naming the field', async () => {
    server = await startTestServer();
    const cases: Array<[Record<string, unknown>, string | null, RegExp]> = [
      [{}, 'question', /question/],
      [{ question: '   ' }, 'question', /non-empty/],
      [{ question: 'q', mode: 'research', budget_tokens: 10 }, 'budget_tokens', /budget_tokens/],
      [{ question: 'q', mode: 'fast' }, 'mode', /mode/],
      [{ question: 'q', max_steps: 0 }, 'max_steps', /max_steps/],
      [{ question: 'q', search_provider: 'nope' }, 'search_provider', /unknown search provider/],
      // A misspelt option is refused, not run without it.
      [{ question: 'q', budget_token: 5000 }, 'budget_token', /unknown field 'budget_token'.*budget_tokens/],
    ];
    for (const [body, param, message] of cases) {
      const response = await create(body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param });
      expect(response.body.error.message).toMatch(message);
    }
    const notJson = await api('/research', { method: 'POST', body: '{', headers: {} });
    expect(notJson.status).toBe(400);
    expect((await api('/runs?limit=0')).status).toBe(400);
    expect((await api('/research/run_x/events', { headers: { 'last-event-id': 'abc' } })).status).toBe(404);
    expect((await api('/research/nope')).status).toBe(404);
    // Ids that are no run's are 404 before any store is asked; a NUL in a search is a 400.
    for (const id of ['run_x%00', '%00', `run_${'x'.repeat(300)}`, 'run_x%0Ay']) {
      const response = await api(`/research/${id}`);
      expect(response.status, id).toBe(404);
      expect(((await response.json()) as Json).error.code).toBe('run_not_found');
    }
    const nul = await api('/runs?q=a%00b');
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as Json).error).toMatchObject({ param: 'q', code: 'invalid_value' });
    expect(server.llm.calls).toEqual([]);
  });

  it('a full queue answers 429 and a queued job waits for a slot', async () => {
    server = await startTestServer({
      server: { maxConcurrent: 1, maxQueue: 1 },
      // Long enough that the first job still runs when the next two arrive on a loaded machine.
      steps: [{ ...scriptedStep.answer('2'), delayMs: 2000 }, scriptedStep.answer('3')],
    });
    const first = await create({ question: 'What is 1+1?' });
    const second = await create({ question: 'What is 1+2?' });
    const third = await create({ question: 'What is 1+3?' });
    expect(first.body.status).toBe('running');
    expect(second.body.status).toBe('queued');
    expect(third.status).toBe(429);
    expect(third.body.error).toMatchObject({ type: 'rate_limit_error' });
    expect((await waitForStatus(second.body.id, 'completed')).result.answer).toContain('3');
  });

  it('POST /v1/research/{id}/resume goes on with a cancelled job from its checkpoint, without repeating its LLM calls', async () => {
    server = await startTestServer({
      search: citedRun.search,
      pages: citedRun.pages,
      steps: [
        citedRun.steps()[0]!,
        citedRun.steps()[1]!,
        // Cut by the cancel, so asked again after the resume (and answered then).
        { ...citedRun.steps()[2]!, delayMs: 20_000 },
        citedRun.steps()[2]!,
        ...citedRun.steps().slice(3),
      ],
    });
    const { body } = await create({ question: citedRun.question });
    await waitFor(() => server!.llm.calls.length === 3, 5000);
    await api(`/research/${body.id}`, { method: 'DELETE' });
    const cancelled = await waitForStatus(body.id, 'cancelled');
    expect(cancelled.usage.total_tokens).toBeGreaterThan(0);
    // GET says whether the resume would be taken: a page shows its Resume button only then.
    expect(cancelled.resumable).toBe(true);
    // A misspelt budget is refused, not resumed with the old one.
    const misspelt = await api(`/research/${body.id}/resume`, {
      method: 'POST',
      body: JSON.stringify({ max_step: 12 }),
    });
    expect(misspelt.status).toBe(400);
    expect(((await misspelt.json()) as Json).error).toMatchObject({
      param: 'max_step',
      code: 'unknown_parameter',
    });
    expect((await waitForStatus(body.id, 'cancelled')).status).toBe('cancelled');
    // Three resumes at once: one is taken; the others are told the run is busy, running or (it is
    // quick) already complete, never a 500.
    const attempts = await Promise.all(
      [1, 2, 3].map(() =>
        api(`/research/${body.id}/resume`, { method: 'POST', body: JSON.stringify({ max_steps: 12 }) }),
      ),
    );
    const resumed = attempts.find((attempt) => attempt.status === 202)!;
    expect(attempts.filter((attempt) => attempt.status === 202)).toHaveLength(1);
    for (const refused of attempts.filter((attempt) => attempt !== resumed)) {
      const { error } = (await refused.json()) as Json;
      expect([refused.status, error.code]).toSatisfy(
        ([status, code]: [number, string]) =>
          (status === 409 && code === 'run_busy') ||
          (status === 400 && (code === 'run_running' || code === 'run_complete')),
      );
    }
    const resumedRun = (await resumed.json()) as Json;
    expect(resumedRun).toMatchObject({ id: body.id, object: 'run', status: 'running' });
    // Running again: the cancel's end time is not shown as its end.
    expect(resumedRun).not.toHaveProperty('finished_at');
    const done = await waitForStatus(body.id, 'completed');
    expect(done.result.answer).toContain('Peter Farrelly');
    expect(done.result.budget.maxSteps).toBe(12);
    // Two steps before the cancel, the cut one again, then criteria and evaluation: nothing else.
    expect(server.llm.calls).toHaveLength(6);
    expect(server.search.calls).toHaveLength(2);
    expect(server.reader.calls).toHaveLength(2);
    const events = sseEvents(await (await api(`/research/${body.id}/events`)).text()).slice(0, -1);
    expect(events.map((event) => event.data.seq)).toEqual(events.map((_, index) => index + 1));
    expect(done.resumable).toBe(false);
    const again = await api(`/research/${body.id}/resume`, { method: 'POST' });
    expect(again.status).toBe(400);
    expect(((await again.json()) as Json).error.code).toBe('run_complete');
  });

  it('a run cancelled before its first step ended has no checkpoint: GET says it is not resumable', async () => {
    server = await startTestServer({ steps: [{ ...scriptedStep.answer('2'), delayMs: 20_000 }] });
    const { body } = await create({ question: 'What is 1+1?' });
    expect((await (await api(`/research/${body.id}`)).json()).resumable).toBe(false);
    await waitFor(() => server!.llm.calls.length === 1, 5000);
    await api(`/research/${body.id}`, { method: 'DELETE' });
    expect((await waitForStatus(body.id, 'cancelled')).resumable).toBe(false);
    const refused = await api(`/research/${body.id}/resume`, { method: 'POST' });
    expect(((await refused.json()) as Json).error.code).toBe('run_not_resumable');
  });

  it('a run whose process is gone (a killed CLI) is failed in GET and in the done event of its stream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deepsearch-orphan-'));
    try {
      const file = join(dir, 'runs.sqlite');
      const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
      const seeded = createRunStore({ file, retention: { maxRuns: 100, maxAgeDays: 30 } });
      seeded.begin(
        {
          id: 'killed-cli-run',
          owner: 'local',
          source: 'cli',
          mode: 'search',
          question: 'q',
          options: {},
          settings: {},
        },
        'running',
        gone,
      );
      seeded.close();
      server = await startTestServer({ config: { runs: { file } } });
      const record = (await (await api('/runs/killed-cli-run')).json()) as Json;
      expect(record).toMatchObject({ status: 'failed', error: { code: 'run_interrupted' } });
      const done = sseEvents(await (await api('/runs/killed-cli-run/events')).text()).at(-1)!;
      expect(done).toMatchObject({ event: 'done', data: { status: 'failed' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('chat completions are recorded too, with their owner, and listed with the async runs', async () => {
    server = await startTestServer({ apiKey: key, steps: [scriptedStep.answer('2')] });
    const completion = await server.client.chat.completions.create({
      model: 'deepsearch',
      messages: [{ role: 'user', content: 'What is 1+1?' }],
    });
    expect(completion.choices[0]!.message.content).toContain('2');
    const list = (await (await api('/runs', { key })).json()) as Json;
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ status: 'completed', question: 'What is 1+1?' });
    const run = (await (await api(`/runs/${list.data[0].id}`, { key })).json()) as Json;
    expect(run.result.answer).toContain('2');
    expect(JSON.stringify(run)).not.toContain(key);
  });
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citedRun } from '../helpers/server-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server-harness.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
type Json = Record<string, any>;

const keyA = 'key-a-watches-test';
const keyB = 'key-b-watches-test';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    steps: citedRun.steps(),
    search: citedRun.search,
    pages: citedRun.pages,
    server: { apiKeys: [keyA, keyB] },
    watches: { schedule: false },
    // The guard as in production: a webhook on a private address is refused.
    config: { reader: { allowPrivateNetwork: false } },
  });
});
afterAll(async () => {
  await server.close();
});

async function api(path: string, key: string, init: { method?: string; body?: unknown } = {}) {
  const response = await fetch(`${server.url}/v1/watches${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(init.body === undefined
      ? {}
      : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

describe('/v1/watches', () => {
  it('creates, lists, shows, patches and deletes a watch, never showing the secret', async () => {
    const created = await api('', keyA, {
      method: 'POST',
      body: {
        question: citedRun.question,
        mode: 'search',
        every: '6h',
        name: 'Best Picture',
        notify: { url: 'https://93.184.215.14/watch', secret: 'shh-secret', format: 'slack' },
        notify_always: true,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'watch',
      name: 'Best Picture',
      question: citedRun.question,
      mode: 'search',
      every: '6h',
      notify: { url: 'https://93.184.215.14/watch', format: 'slack', signed: true },
      notify_always: true,
      paused: false,
    });
    expect(JSON.stringify(created.body)).not.toContain('shh-secret');
    const { id } = created.body;

    const listed = await api('', keyA);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((watch: Json) => watch.id)).toEqual([id]);

    const patched = await api(`/${id}`, keyA, { method: 'PATCH', body: { paused: true, cron: '0 8 * * 1' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, paused: true, cron: '0 8 * * 1', next_run_at: null });
    expect(patched.body.every).toBeUndefined();

    const shown = await api(`/${id}`, keyA);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id, paused: true, runs: [] });
    expect(JSON.stringify(shown.body)).not.toContain('shh-secret');

    const deleted = await api(`/${id}`, keyA, { method: 'DELETE' });
    expect(deleted).toEqual({ status: 200, body: { id, object: 'watch.deleted', deleted: true } });
    expect((await api(`/${id}`, keyA)).status).toBe(404);
  });

  it("keeps one key's watches from another: 404 on each of its paths, an empty list", async () => {
    const { body } = await api('', keyA, { method: 'POST', body: { question: 'Who runs it?', every: '1d' } });
    for (const [method, path, payload] of [
      ['GET', `/${body.id}`, undefined],
      ['PATCH', `/${body.id}`, { paused: true }],
      ['POST', `/${body.id}/run`, undefined],
      ['DELETE', `/${body.id}`, undefined],
    ] as const) {
      const answer = await api(path, keyB, { method, ...(payload ? { body: payload } : {}) });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error).toMatchObject({ type: 'not_found_error', code: 'watch_not_found' });
    }
    expect((await api('', keyB)).body.data).toEqual([]);
    expect((await api(`/${body.id}`, keyA)).body.paused).toBe(false);
    await api(`/${body.id}`, keyA, { method: 'DELETE' });
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: Array<[unknown, string, string | null]> = [
      [{ every: '1d' }, 'question', 'invalid_value'],
      [{ question: 'q?', every: 'often' }, 'every', 'watch_invalid_schedule'],
      [{ question: 'q?', every: '10s' }, 'every', 'watch_invalid_schedule'],
      [{ question: 'q?', cron: 'sometimes' }, 'cron', 'watch_invalid_schedule'],
      [{ question: 'q?', every: '1d', cron: '0 8 * * 1' }, 'every', 'watch_invalid_schedule'],
      [{ question: 'q?' }, 'every', 'watch_invalid_schedule'],
      [{ question: 'q?', every: '1d', mode: 'essay' }, 'mode', 'invalid_value'],
      [{ question: 'q?', every: '1d', evry: '1d' }, 'evry', 'unknown_parameter'],
      [
        { question: 'q?', every: '1d', notify: { url: 'http://127.0.0.1:9/hook' } },
        'notify.url',
        'url_blocked',
      ],
      [{ question: 'q?', every: '1d', notify: { url: 'ftp://example.com/x' } }, 'notify.url', 'url_blocked'],
      [
        { question: 'q?', every: '1d', notify: { url: 'https://93.184.215.14/x', format: 'xml' } },
        'notify.format',
        'invalid_value',
      ],
    ];
    for (const [body, param, code] of cases) {
      const answer = await api('', keyA, { method: 'POST', body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error, JSON.stringify(body)).toMatchObject({
        type: 'invalid_request_error',
        param,
        code,
      });
    }
    const notJson = await api('', keyA, { method: 'POST', body: '{not json' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe('invalid_json');
    const created = await api('', keyA, { method: 'POST', body: { question: 'q?', every: '1d' } });
    const badPatch = await api(`/${created.body.id}`, keyA, { method: 'PATCH', body: { paused: 'yes' } });
    expect(badPatch.status).toBe(400);
    expect(badPatch.body.error.param).toBe('paused');
    expect((await api('', keyA)).body.data).toHaveLength(1);
    await api(`/${created.body.id}`, keyA, { method: 'DELETE' });
  });

  it('runs a check now through the run API: its run is listed with the owner, its baseline kept', async () => {
    const { body } = await api('', keyA, {
      method: 'POST',
      body: { question: citedRun.question, every: '1d' },
    });
    const started = await api(`/${body.id}/run`, keyA, { method: 'POST' });
    expect(started).toEqual({
      status: 202,
      body: { object: 'watch.check', watch_id: body.id, status: 'running' },
    });
    let shown: Json = {};
    for (let tries = 0; tries < 100 && !(shown.runs?.length > 0); tries++) {
      shown = (await api(`/${body.id}`, keyA)).body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(shown.runs).toHaveLength(1);
    const [check] = shown.runs;
    expect(check).toMatchObject({ object: 'watch.run', status: 'ok', changes: [] });
    expect(check.summary).toMatch(/^first check: \d+ claims? kept as the baseline$/);
    const runs = (await (
      await fetch(`${server.url}/v1/runs`, { headers: { authorization: `Bearer ${keyA}` } })
    ).json()) as Json;
    expect(runs.data.map((run: Json) => run.id)).toContain(check.run_id);
    const other = (await (
      await fetch(`${server.url}/v1/runs`, { headers: { authorization: `Bearer ${keyB}` } })
    ).json()) as Json;
    expect(other.data).toEqual([]);
  });

  it("offers the MCP watch tool over HTTP, on the session key's watches only", async () => {
    const connect = async (key: string) => {
      const client = new Client({ name: 'watch-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { Authorization: `Bearer ${key}` } },
        }),
      );
      return client;
    };
    const [a, b] = [await connect(keyA), await connect(keyB)];
    try {
      expect((await a.listTools()).tools.map((tool) => tool.name)).toContain('watch');
      const added = await a.callTool({
        name: 'watch',
        arguments: { action: 'add', question: 'Who runs the Orlin Bridge?', every: '1w', name: 'Orlin' },
      });
      expect(added.isError).toBeFalsy();
      const id = (added.structuredContent as Json).id as string;
      expect(id).toMatch(/^watch_/);
      const listed = await a.callTool({ name: 'watch', arguments: { action: 'list' } });
      expect((listed.content as Array<{ text: string }>)[0]!.text).toContain(id);
      const shown = await a.callTool({ name: 'watch', arguments: { action: 'show', id } });
      expect(shown.structuredContent).toMatchObject({ id, name: 'Orlin', every: '1w', runs: [] });
      const otherList = await b.callTool({ name: 'watch', arguments: { action: 'list' } });
      expect((otherList.content as Array<{ text: string }>)[0]!.text).toBe('No watches yet.');
      const otherShow = await b.callTool({ name: 'watch', arguments: { action: 'show', id } });
      expect(otherShow.isError).toBe(true);
      const bad = await a.callTool({
        name: 'watch',
        arguments: { action: 'add', question: 'q?', every: 'often' },
      });
      expect(bad.isError).toBe(true);
      expect((bad.content as Array<{ text: string }>)[0]!.text).toContain('every must be a duration');
      await api(`/${id}`, keyA, { method: 'DELETE' });
    } finally {
      await a.close();
      await b.close();
    }
  });
});

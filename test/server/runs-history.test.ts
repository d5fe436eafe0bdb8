import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyRunUsage } from '../../src/runs/run-cost.js';
import { createRunStore } from '../../src/runs/run-store.js';
import { startTestServer, type TestServer } from '../helpers/server-harness.js';

let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-runs-history-'));
  const file = join(dir, 'runs.sqlite');
  const store = createRunStore({ file, retention: { maxRuns: 100, maxAgeDays: 30 } });
  const run = (id: string, options: Record<string, unknown>) => {
    store.begin(
      { id, owner: 'local', source: 'cli', mode: 'search', question: `q ${id}`, options, settings: {} },
      'running',
    );
    store.finish(id, { status: 'completed', usage: emptyRunUsage() });
  };
  run('asked', {});
  run('evaluated', { eval: { questionId: 'simpleqa-12' } });
  store.close();
  server = await startTestServer({ config: { runs: { file } } });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

interface RunList {
  data: Array<{ id: string; evaluation: boolean }>;
  error?: Record<string, unknown>;
}

const list = async (query: string) => {
  const response = await fetch(`${server.url}/v1/runs${query}`);
  return { status: response.status, body: (await response.json()) as RunList };
};

describe('GET /v1/runs: the history the web page shows', () => {
  it('leaves the runs of deepsearch eval out unless include_evaluations=true', async () => {
    const plain = await list('');
    expect(plain.status).toBe(200);
    expect(plain.body.data.map((run) => run.id)).toEqual(['asked']);
    const all = await list('?include_evaluations=true');
    expect(all.body.data.map((run) => [run.id, run.evaluation]).sort()).toEqual([
      ['asked', false],
      ['evaluated', true],
    ]);
    const bad = await list('?include_evaluations=maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ type: 'invalid_request_error', param: 'include_evaluations' });
  });
});

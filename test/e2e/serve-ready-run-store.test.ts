import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveBuiltCli } from '../helpers/serve-built-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'deepsearch-ready-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('deepsearch serve /ready on one machine', () => {
  it('/ready, the run API and the watches are 503 naming the run store and its setting while its file cannot be opened; 200 once it can', async () => {
    // The run store's folder is a file: SQLite cannot create the store there.
    const folder = join(dir, 'data');
    writeFileSync(folder, 'not a folder');
    const file = join(folder, 'runs.sqlite');
    const server = await serveBuiltCli({
      DEEPSEARCH_RUNS_FILE: file,
      DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      DEEPSEARCH_LLM_MODEL: 'm',
      DEEPSEARCH_SEARXNG_URL: 'http://127.0.0.1:9',
    });
    try {
      const away = await fetch(`${server.url}/ready`);
      expect(away.status).toBe(503);
      expect(away.headers.get('retry-after')).toMatch(/^\d+$/);
      const body = (await away.json()) as { status: string; error: { message: string; code: string } };
      expect(body.status).toBe('unavailable');
      expect(body.error).toMatchObject({
        code: 'service_unavailable',
        message: `the run store (SQLite at ${file}, set by DEEPSEARCH_RUNS_FILE) can't be reached`,
      });
      expect(JSON.stringify(body)).not.toMatch(/EEXIST|mkdir|at .*\.js/);
      // Liveness is another question: the process answers.
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      // The run API says the same: 503 naming the store, not a 500 that hides why.
      for (const request of [
        fetch(`${server.url}/v1/research`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: 'Who founded the observatory?', mode: 'search' }),
        }),
        fetch(`${server.url}/v1/runs`),
        // The watches live in the same file.
        fetch(`${server.url}/v1/watches`),
        fetch(`${server.url}/v1/watches`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: 'Who founded the observatory?', every: '1d' }),
        }),
      ]) {
        const response = await request;
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
          `the run store (SQLite at ${file}, set by DEEPSEARCH_RUNS_FILE) can't be reached`,
        );
      }
      rmSync(folder);
      mkdirSync(folder);
      const back = await fetch(`${server.url}/ready`);
      expect(back.status).toBe(200);
      expect(((await back.json()) as { status: string }).status).toBe('ready');
      expect((await fetch(`${server.url}/v1/runs`)).status).toBe(200);
      expect((await fetch(`${server.url}/v1/watches`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

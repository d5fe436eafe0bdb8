import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyRunUsage } from '../../src/runs/run-cost.js';
import type { NewRun } from '../../src/runs/run-record.js';
import { createRunStore } from '../../src/runs/run-store.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'deepsearch-runs-list-'));
const file = join(dir, 'runs.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const newRun = (id: string, mode: string, options: Record<string, unknown> = {}): NewRun => ({
  id,
  owner: 'local',
  source: 'cli',
  mode,
  question: `question ${id}`,
  options,
  settings: {},
});

beforeAll(() => {
  const store = createRunStore({ file, retention: { maxRuns: 100, maxAgeDays: 30 } });
  store.begin(newRun('search-run', 'search'), 'running');
  store.begin(newRun('research-run', 'research'), 'running');
  store.begin(newRun('eval-run', 'search', { eval: { questionId: 'q1' } }), 'running');
  for (const id of ['search-run', 'research-run', 'eval-run'])
    store.finish(id, { status: 'completed', usage: emptyRunUsage() });
  store.close();
});

describe('deepsearch runs list (built CLI)', () => {
  it('has a header and a mode column (eval for the runs of deepsearch eval)', async () => {
    const listed = await runBuiltCli(['runs', 'list'], {
      DEEPSEARCH_NO_RUNS: '0',
      DEEPSEARCH_RUNS_FILE: file,
    });
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID +CREATED +MODE +STATUS +TOKENS +QUESTION$/);
    const modeOf = (id: string) => lines.find((line) => line.startsWith(id))?.split(/\s{2,}/)[2];
    expect(modeOf('search-run')).toBe('search');
    expect(modeOf('research-run')).toBe('research');
    expect(modeOf('eval-run')).toBe('eval');
  });

  it('the store leaves evaluations out when asked, and says which runs are', () => {
    const store = createRunStore({ file, retention: { maxRuns: 100, maxAgeDays: 30 } });
    try {
      const all = store.list({ limit: 10 }).runs;
      expect(all.map((run) => [run.id, run.evaluation]).sort()).toEqual([
        ['eval-run', true],
        ['research-run', false],
        ['search-run', false],
      ]);
      const without = store.list({ limit: 10, withoutEvaluations: true }).runs.map((run) => run.id);
      expect(without.sort()).toEqual(['research-run', 'search-run']);
    } finally {
      store.close();
    }
  });
});

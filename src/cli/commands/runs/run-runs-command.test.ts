import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInMemory } from '../../../../test/helpers/run-cli-in-memory.js';
import type { NewRun } from '../../../runs/run-record.js';
import { createRunStore } from '../../../runs/run-store.js';

const dir = mkdtempSync(join(tmpdir(), 'deepsearch-runs-delete-'));
const file = join(dir, 'runs.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const newRun = (id: string): NewRun => ({
  id,
  owner: 'local',
  source: 'cli',
  mode: 'search',
  question: `question ${id}`,
  options: {},
  settings: {},
});

async function run(args: string[]) {
  return runCliInMemory(args, {
    env: { DEEPSEARCH_RUNS_FILE: file, DEEPSEARCH_LOCAL_LLM_URLS: 'off' },
    cwd: dir,
  });
}

describe('deepsearch runs list --json and delete', () => {
  it('refuses a run a live process is still running, and deletes one whose process is gone', async () => {
    // A process that has exited: its pid is no longer alive.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const store = createRunStore({ file, retention: { maxRuns: 100, maxAgeDays: 30 } });
    store.begin(newRun('live-run'), 'running', process.pid);
    store.begin(newRun('dead-run'), 'running', gone);
    store.close();

    // The JSON list says what the text list says: the run whose process is gone is interrupted.
    const listed = JSON.parse((await run(['runs', 'list', '--json'])).stdout) as Array<{
      id: string;
      status: string;
    }>;
    expect(Object.fromEntries(listed.map((item) => [item.id, item.status]))).toEqual({
      'live-run': 'running',
      'dead-run': 'interrupted',
    });
    const live = await run(['runs', 'delete', 'live-run']);
    expect(live.code).toBe(2);
    expect(live.stderr.trim()).toBe(
      `deepsearch: error: run live-run is still running (process ${process.pid}): stop it first, then delete it`,
    );
    const dead = await run(['runs', 'delete', 'dead-run']);
    expect(dead.code).toBe(0);
    expect(dead.stderr).toContain('deleted run dead-run');

    const after = createRunStore({ file, retention: { maxRuns: 100, maxAgeDays: 30 } });
    expect(after.get('live-run')?.status).toBe('running');
    expect(after.get('dead-run')).toBeUndefined();
    after.close();
  });
});

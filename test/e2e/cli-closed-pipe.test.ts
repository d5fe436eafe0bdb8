import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/run-built-cli.js';

describe('the built CLI writing into a closed pipe', () => {
  it('ends quietly with exit 0 when its reader went away (`deepsearch ... | head -1`), no EPIPE stack', async () => {
    expect(existsSync(cliPath), 'run npm run build first').toBe(true);
    const child = spawn(process.execPath, [cliPath, 'ask', '--help'], {
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', DEEPSEARCH_LOCAL_LLM_URLS: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader closes its end before the CLI (still loading) writes a byte.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code, signal] = await once(child, 'close');
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
    expect(stderr).toBe('');
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });

  it.skipIf(!existsSync('/dev/full'))(
    'a stdout that fails otherwise (a full disk) is one line and exit 1',
    async () => {
      const full = openSync('/dev/full', 'w');
      const child = spawn(process.execPath, [cliPath, 'ask', '--help'], {
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', DEEPSEARCH_LOCAL_LLM_URLS: 'off' },
        stdio: ['ignore', full, 'pipe'],
      });
      closeSync(full);
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const [code] = await once(child, 'close');
      expect(stderr.trim().split('\n')).toEqual([
        'deepsearch: error: cannot write the output: ENOSPC: no space left on device, write',
      ]);
      expect(code).toBe(1);
    },
  );
});

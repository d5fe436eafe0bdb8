import { execFile } from 'node:child_process';
import { chmodSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/run-built-cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('scripts/build-cli.mjs', () => {
  // tsc writes dist/cli/main.js first (rw-r--r--); writeFile's mode applies only to a new file, so
  // the stub the script writes over it kept no execute bit and `./dist/cli/main.js` failed.
  it('leaves dist/cli/main.js executable when the file was already there without the bit', async () => {
    chmodSync(cliPath, 0o644);
    await new Promise<void>((resolve, reject) => {
      execFile(process.execPath, ['scripts/build-cli.mjs'], { cwd: root, timeout: 60_000 }, (error) =>
        error ? reject(error) : resolve(),
      );
    });
    expect(statSync(cliPath).mode & 0o777).toBe(0o755);
  });
});

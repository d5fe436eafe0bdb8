import { type ChildProcess, execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const cliPath = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI as a subprocess with a clean environment (only what the test passes, plus
 * PATH), so no key or setting from the developer's machine leaks in. The cache is off unless a test
 * turns it on with its own DEEPSEARCH_CACHE_DIR, and the run store is off unless a test sets
 * DEEPSEARCH_NO_RUNS=0 and its own DEEPSEARCH_RUNS_FILE, so no run writes to the user's data directory.
 */
// The user's data directory (knowledge base, domain trust profiles) is a temporary one for the
// whole test process unless a test passes its own.
let dataHome: string | undefined;
function testDataHome(): string {
  dataHome ??= mkdtempSync(join(tmpdir(), 'deepsearch-data-'));
  return dataHome;
}

/** The clean environment of runBuiltCli: PATH and the test defaults, then what the test passes. */
export function builtCliEnvironment(env: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NO_COLOR: '1',
    DEEPSEARCH_NO_CACHE: '1',
    DEEPSEARCH_NO_RUNS: '1',
    DEEPSEARCH_LOCAL_LLM_URLS: 'off',
    XDG_DATA_HOME: testDataHome(),
    ...env,
  };
}

export function runBuiltCli(
  args: string[],
  env: Record<string, string> = {},
  options: {
    timeoutMs?: number;
    onSpawn?: (child: ChildProcess) => void;
    /** Written to the command's stdin, which is then closed. */
    stdin?: string;
  } = {},
): Promise<CliRun> {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run npm run build first (npm test does)`);
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [cliPath, ...args],
      {
        // Local LLM discovery is off unless a test points it at its own fake server: the usual
        // ports (11434, 8080...) may be anything on the machine running the tests.
        env: builtCliEnvironment(env),
        timeout: options.timeoutMs ?? 30_000,
        cwd: fileURLToPath(new URL('.', import.meta.url)),
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    // Unless the test pipes something in, close stdin so a command reading it sees the end at once.
    child.stdin?.end(options.stdin ?? '');
    options.onSpawn?.(child);
  });
}

// Queue mode as a deployment runs it, for test/distributed/: real `deepsearch serve` and
// `deepsearch worker` processes (the built CLI) on one Redis and one Postgres, all on 127.0.0.1.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath } from './run-built-cli.js';
import { type BuiltServer, serveBuiltCli } from './serve-built-cli.js';

export interface BuiltWorker {
  child: ChildProcessWithoutNullStreams;
  readonly stderr: string;
  /** The worker's log (a line per job and per service change). */
  readonly stdout: string;
  /** SIGTERM, then the exit code once the process is gone. */
  stop(): Promise<number | null>;
  /** SIGKILL: the worker dies mid-run, as an OOM kill or a lost machine does. */
  kill(): Promise<void>;
}

/** `deepsearch worker` from dist/, resolved once it says it takes jobs. */
export async function startBuiltWorker(
  env: Record<string, string>,
  concurrency = 4,
  /** More flags (--health-port). */
  args: string[] = [],
): Promise<BuiltWorker> {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run npm run build first (npm test does)`);
  const child = spawn(process.execPath, [cliPath, 'worker', '--concurrency', String(concurrency), ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      NO_COLOR: '1',
      XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'deepsearch-worker-data-')),
      DEEPSEARCH_NO_CACHE: '1',
      DEEPSEARCH_LOCAL_LLM_URLS: 'off',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('worker taking jobs')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited early (${code}): ${stderr}`)));
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    get stderr() {
      return stderr;
    },
    get stdout() {
      return stdout;
    },
    async stop() {
      if (gone()) return child.exitCode;
      const closed = once(child, 'close');
      child.kill('SIGTERM');
      await closed;
      return child.exitCode;
    },
    async kill() {
      if (gone()) return;
      const closed = once(child, 'close');
      child.kill('SIGKILL');
      await closed;
    },
  };
}

export type { BuiltServer };
export const startApiNode = serveBuiltCli;

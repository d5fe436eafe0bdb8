import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath } from './run-built-cli.js';

export interface BuiltServer {
  /** Base URL without a trailing slash: the web UI is at `${url}/`, the API under `${url}/v1`. */
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** The access log (JSON lines) so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** SIGTERM, then the exit code once the process is gone and its output read. */
  stop(): Promise<number | null>;
}

/**
 * `deepsearch serve --port 0` from dist/ as a subprocess, with a clean environment (PATH, a
 * temporary data directory, no local LLM discovery, no cache, plus what the test passes); resolves
 * with its URL once it says it is serving.
 */
export async function serveBuiltCli(env: Record<string, string>): Promise<BuiltServer> {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run npm run build first (npm test does)`);
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0'], {
    env: {
      PATH: process.env.PATH ?? '',
      NO_COLOR: '1',
      // The data directory (run store, knowledge base, domain trust) is a temporary one.
      XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'deepsearch-serve-data-')),
      DEEPSEARCH_NO_CACHE: '1',
      DEEPSEARCH_LOCAL_LLM_URLS: 'off',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /at (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`serve exited early: ${stderr}`)));
  });
  return {
    url,
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      // 'close', not 'exit': the last access log lines are read by then.
      const closed = once(child, 'close');
      child.kill('SIGTERM');
      await closed;
      return child.exitCode;
    },
  };
}

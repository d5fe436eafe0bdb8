import { Readable } from 'node:stream';
import type { CliIo } from '../../src/cli/io/cli-io.js';
import { runCli } from '../../src/cli/run-cli.js';

/**
 * Runs the CLI in this process with the given environment and folder, a terminal's empty stdin,
 * and stdout and stderr collected: a command's whole behaviour without building or spawning it.
 */
export async function runCliInMemory(
  args: readonly string[],
  options: { env: Record<string, string>; cwd: string },
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    argv: ['node', 'deepsearch', ...args],
    env: options.env,
    cwd: options.cwd,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Object.assign(Readable.from([]), { isTTY: true }),
    signal: new AbortController().signal,
  };
  const code = await runCli(io);
  return { code, stdout, stderr };
}

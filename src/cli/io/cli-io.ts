import type { Secret } from '../../core/errors/index.js';
/** What a command needs from the process, injected so commands run in tests without spawning. */
export interface CliIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Fires on Ctrl-C / SIGTERM. */
  signal: AbortSignal;
  /**
   * Registers the loaded config's secrets: from then on nothing written to stdout or stderr
   * (progress, answers, error lines, --debug) contains them. Set by runCli.
   */
  addSecrets?: (secrets: readonly Secret[]) => void;
}

/** Reads all of stdin when it is piped; returns '' for a terminal. */
export async function readPipedStdin(stdin: CliIo['stdin']): Promise<string> {
  if (stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8').trim();
}

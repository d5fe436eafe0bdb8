import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { builtCliEnvironment, cliPath } from './run-built-cli.js';

/** The built CLI running in a real pseudo-terminal, as a person's terminal runs it. */
export interface BuiltCliTerminal {
  child: ChildProcess;
  /** Everything the terminal has shown so far. */
  output: () => string;
  /** Resolves with the offset after `text` once the terminal shows it (after `from`); fails after `timeoutMs`. */
  waitFor: (text: string, options?: { from?: number; timeoutMs?: number }) => Promise<number>;
  /** Keys typed into the terminal (`\r` is Enter, `\x03` Ctrl-C). */
  type: (keys: string) => void;
  /** The exit code `script` passes on from the CLI. */
  exited: Promise<number | null>;
  /** The pid of the CLI itself (under `script` and the shell it may start), for signals. */
  cliPid: () => number;
}

/**
 * Runs the built CLI on a pty with util-linux's `script` (Debian's essential bsdutils), in the
 * clean environment of runBuiltCli: stdin is a TTY, so readline and prompts work as for a person.
 */
export function openBuiltCliTerminal(args: string[], env: Record<string, string> = {}): BuiltCliTerminal {
  const command = [process.execPath, cliPath, ...args]
    .map((part) => `'${part.replace(/'/g, "'\\''")}'`)
    .join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: builtCliEnvironment({ TERM: 'xterm', ...env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  // 'close': the process has exited and the terminal's last output has been read.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    type: (keys) => child.stdin!.write(keys),
    exited,
    waitFor: (wanted, { from = 0, timeoutMs = 15_000 } = {}) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const at = text.indexOf(wanted, from);
          if (at !== -1) {
            clearInterval(poll);
            resolve(at + wanted.length);
          } else if (Date.now() - started > timeoutMs) {
            clearInterval(poll);
            reject(new Error(`"${wanted}" never appeared; the terminal shows:\n${text}`));
          }
        }, 20);
      }),
    cliPid: () => findCliPid(child.pid!),
  };
}

function findCliPid(scriptPid: number): number {
  let parents = [scriptPid];
  for (let depth = 0; depth < 3; depth++) {
    const children: number[] = [];
    for (const parent of parents) {
      const rows = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], { encoding: 'utf8' });
      for (const row of rows.trim().split('\n').filter(Boolean)) {
        const [pid, ...args] = row.trim().split(/\s+/);
        if (!args.join(' ').includes(cliPath)) continue;
        if (args[0] === process.execPath) return Number(pid);
        children.push(Number(pid));
      }
    }
    parents = children;
  }
  throw new Error('the CLI process was not found under script');
}

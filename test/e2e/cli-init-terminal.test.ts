import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/run-built-cli.js';

/**
 * `deepsearch init` in a real pseudo-terminal: util-linux's `script` (in Debian's essential
 * bsdutils) runs the built CLI on a pty, so stdin is a TTY and readline works as in a person's
 * terminal. The test answers each question when it appears.
 */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-init-pty-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Terminal {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the output holds `text` (after `from`), or fails after 15 s. */
  waitFor: (text: string, from?: number) => Promise<number>;
  type: (keys: string) => void;
  exited: Promise<number | null>;
}

function openTerminal(args: string[]): Terminal {
  const command = [process.execPath, cliPath, ...args].map((part) => `'${part}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: {
      PATH: process.env.PATH ?? '',
      TERM: 'xterm',
      NO_COLOR: '1',
      DEEPSEARCH_LOCAL_LLM_URLS: 'off',
      XDG_DATA_HOME: dir,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    type: (keys) => child.stdin!.write(keys),
    exited,
    waitFor: (wanted, from = 0) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const at = text.indexOf(wanted, from);
          if (at !== -1) {
            clearInterval(poll);
            resolve(at + wanted.length);
          } else if (Date.now() - started > 15_000) {
            clearInterval(poll);
            reject(new Error(`"${wanted}" never appeared; the terminal shows:\n${text}`));
          }
        }, 20);
      }),
  };
}

/** The pid of the CLI itself: the node process under `script` (and the shell it may start). */
function cliPid(terminal: Terminal): number {
  let parents = [terminal.child.pid!];
  for (let depth = 0; depth < 3; depth++) {
    const children: number[] = [];
    for (const parent of parents) {
      const rows = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], { encoding: 'utf8' });
      for (const row of rows.trim().split('\n').filter(Boolean)) {
        const [pid, ...args] = row.trim().split(/\s+/);
        if (args.join(' ').includes(cliPath)) {
          if (args[0] === process.execPath) return Number(pid);
          children.push(Number(pid));
        }
      }
    }
    parents = children;
  }
  throw new Error('the CLI process was not found under script');
}

describe('deepsearch init in a terminal (a real pseudo-terminal)', () => {
  it('asks its questions, takes the answers and writes a file deepsearch accepts', async () => {
    const file = join(dir, 'asked.json');
    const terminal = openTerminal(['init', '--config', file]);
    let at = await terminal.waitFor('LLM provider');
    terminal.type('\r');
    at = await terminal.waitFor('LLM server URL', at);
    terminal.type('http://localhost:8080/v1\r');
    at = await terminal.waitFor('Model', at);
    terminal.type('qwen2.5:7b\r');
    at = await terminal.waitFor('SearXNG URL', at);
    terminal.type('http://localhost:8888\r');
    expect(await terminal.exited).toBe(0);
    expect(terminal.output()).toContain(`wrote ${file}`);
    expect(terminal.output()).not.toContain('error');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.llm).toMatchObject({
      provider: 'openai-compatible',
      baseURL: 'http://localhost:8080/v1',
      model: 'qwen2.5:7b',
    });
    expect(written.search).toMatchObject({ provider: 'auto', searxngUrl: 'http://localhost:8888' });
  });

  it('SIGTERM while it waits for an answer ends it at once, writing nothing', async () => {
    const file = join(dir, 'terminated.json');
    const terminal = openTerminal(['init', '--config', file]);
    await terminal.waitFor('LLM provider');
    const sent = Date.now();
    process.kill(cliPid(terminal), 'SIGTERM');
    expect(await terminal.exited).toBe(130);
    expect(Date.now() - sent).toBeLessThan(5_000);
    expect(terminal.output()).toContain('init interrupted: nothing was written');
    expect(existsSync(file)).toBe(false);
  });

  it('Ctrl-C at a question ends it too', async () => {
    const file = join(dir, 'interrupted.json');
    const terminal = openTerminal(['init', '--config', file]);
    await terminal.waitFor('LLM provider');
    terminal.type('\x03');
    expect(await terminal.exited).toBe(130);
    expect(existsSync(file)).toBe(false);
  });
});

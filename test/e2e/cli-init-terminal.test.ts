import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBuiltCliTerminal } from '../helpers/built-cli-terminal.js';

/** `deepsearch init` in a real pseudo-terminal: the test answers each question when it appears. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-init-pty-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('deepsearch init in a terminal (a real pseudo-terminal)', () => {
  it('asks its questions, takes the answers and writes a file deepsearch accepts', async () => {
    const file = join(dir, 'asked.json');
    const terminal = openBuiltCliTerminal(['init', '--config', file], { XDG_DATA_HOME: dir });
    let at = await terminal.waitFor('LLM provider');
    terminal.type('\r');
    at = await terminal.waitFor('LLM server URL', { from: at });
    terminal.type('http://localhost:8080/v1\r');
    at = await terminal.waitFor('Model', { from: at });
    terminal.type('qwen2.5:7b\r');
    at = await terminal.waitFor('SearXNG URL', { from: at });
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
    const terminal = openBuiltCliTerminal(['init', '--config', file], { XDG_DATA_HOME: dir });
    await terminal.waitFor('LLM provider');
    const sent = Date.now();
    process.kill(terminal.cliPid(), 'SIGTERM');
    expect(await terminal.exited).toBe(130);
    expect(Date.now() - sent).toBeLessThan(5_000);
    expect(terminal.output()).toContain('init interrupted: nothing was written');
    expect(existsSync(file)).toBe(false);
  });

  it('Ctrl-C at a question ends it too', async () => {
    const file = join(dir, 'interrupted.json');
    const terminal = openBuiltCliTerminal(['init', '--config', file], { XDG_DATA_HOME: dir });
    await terminal.waitFor('LLM provider');
    terminal.type('\x03');
    expect(await terminal.exited).toBe(130);
    expect(existsSync(file)).toBe(false);
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../helpers/run-built-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'deepsearch-help-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The built CLI, as a person's shell starts it: usage errors and help pass through main. */
const run = (...args: string[]) => runBuiltCli(args);

describe('help screens and usage errors (built CLI)', () => {
  it('deepsearch with no arguments prints the commands on stdout and exits 0', async () => {
    const result = await run();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: deepsearch \[options\] \[command\]/);
    expect(result.stdout).toContain('ask ');
    expect(result.stderr).toBe('');
  });

  it('ask --help-all lists the LLM roles ask calls and none of research or eval', async () => {
    const { stdout } = await run('ask', '--help-all');
    for (const role of ['agent', 'beast', 'evaluator', 'analyzer', 'rewriter'])
      expect(stdout).toContain(`--llm-${role}-model`);
    for (const role of ['planner', 'librarian', 'writer', 'judge'])
      expect(stdout).not.toContain(`--llm-${role}-`);
    const research = (await run('research', '--help-all')).stdout;
    for (const role of ['planner', 'librarian', 'writer', 'agent'])
      expect(research).toContain(`--llm-${role}-model`);
    expect((await run('eval', '--help-all')).stdout).toContain('--llm-judge-model');
  });

  it('ask, research and help settings give the same search default: auto', async () => {
    const settings = (await run('help', 'settings')).stdout;
    const line = settings.split('\n').find((text) => text.includes('--search-provider'));
    expect(line).toMatch(/auto/);
    for (const command of ['ask', 'research', 'search']) {
      const { stdout } = await run(command, '--help');
      const option = stdout.split('\n').find((text) => text.includes('--search-provider'));
      expect(option, command).toContain('auto (default)');
      expect(stdout).not.toContain('duckduckgo (default)');
      // Every line of --help fits an 80-column terminal.
      expect(option!.length, command).toBeLessThanOrEqual(80);
    }
  });

  it('research --help lists --max-steps beside the other budgets, saying research scales its own', async () => {
    const { stdout } = await run('research', '--help');
    const budget = stdout.slice(stdout.indexOf('Budget:'));
    for (const flag of ['--max-steps', '--max-tokens', '--max-time', '--max-hops'])
      expect(budget).toContain(flag);
    expect(budget).toContain('research scales its own');
  });

  it("a typo points at the command's own help", async () => {
    const ask = await run('ask', '--jsn', 'q');
    expect(ask.code).toBe(2);
    expect(ask.stderr).toBe(
      "deepsearch: error: unknown option '--jsn' (Did you mean --json?) (see deepsearch ask --help)\n",
    );
    const kb = await run('kb', 'add', '--bogus', 'x');
    expect(kb.stderr).toContain('(see deepsearch kb add --help)');
    expect((await run('frobnicate')).stderr).toContain(
      "unknown command 'frobnicate' (see deepsearch --help)",
    );
  });

  it('read takes --json like every other command, and refuses it beside another --format', async () => {
    const file = join(dir, 'page.html');
    await writeFile(
      file,
      '<html><head><title>Tides</title></head><body><article><p>High tide at Brest is at noon, and the paragraph is long enough to be content.</p></article></body></html>',
    );
    const read = await run('read', '--json', file);
    expect(read.code).toBe(0);
    expect(JSON.parse(read.stdout.trim())).toMatchObject({ title: 'Tides' });
    const both = await run('read', '--json', '--format', 'text', file);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--json and --format text disagree');
  });

  it('kb add and kb search show examples', async () => {
    expect((await run('kb', 'add', '--help')).stdout).toMatch(/Examples:\n {2}\$ deepsearch kb add /);
    expect((await run('kb', 'search', '--help')).stdout).toMatch(/Examples:\n {2}\$ deepsearch kb search /);
  });
});

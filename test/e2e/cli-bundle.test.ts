import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../../src/testing/fake-http-server.js';
import { builtCliEnvironment, type CliRun, cliPath, runBuiltCli } from '../helpers/run-built-cli.js';

// dist/cli/main.js runs the bundle of scripts/build-cli.mjs; tsc's separate modules of the same
// sources stay in dist/ (the library). The bundle has its own copy of every error class, so this
// checks what a user sees from it, exit code and message, is what the modules give, for the
// failures told apart by class: configuration, input, usage, an outside service.
const runCliModule = pathToFileURL(join(cliPath, '..', 'run-cli.js')).href;

/** The same command through tsc's modules (dist/cli/run-cli.js), not the bundle. */
function runModules(args: string[], env: Record<string, string>): Promise<CliRun> {
  const script = `
    import { runCli } from ${JSON.stringify(runCliModule)};
    process.exitCode = await runCli({
      argv: ['node', 'deepsearch', ...process.argv.slice(1)],
      env: process.env, cwd: process.cwd(),
      stdout: process.stdout, stderr: process.stderr, stdin: process.stdin,
      signal: new AbortController().signal,
    });`;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '--eval', script, '--', ...args],
      { env: builtCliEnvironment(env), timeout: 30_000, cwd: work },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

const work = mkdtempSync(join(tmpdir(), 'deepsearch-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the bundled CLI (dist/cli/main.js) against the modules it is built from', () => {
  it('gives the same exit code and message for each kind of failure', async () => {
    const badValue = join(work, 'bad.json');
    writeFileSync(badValue, JSON.stringify({ llm: { temperature: 5 } }));
    const notJson = join(work, 'broken.json');
    writeFileSync(notJson, '{ not json');
    const missing = join(work, 'nothing', 'kb.sqlite');
    const base = join(work, 'kb.sqlite');
    const note = join(work, 'rotation.md');
    writeFileSync(
      note,
      '# Key rotation\n\nSigning keys are rotated every ninety days by the security team.\n',
    );
    expect((await runBuiltCli(['kb', 'add', note, '--kb', base, '--quiet'])).code).toBe(0);
    const searxng = await closedPortUrl();
    const cases: Array<{ args: string[]; env?: Record<string, string>; code: number; stderr: RegExp }> = [
      // ConfigError: a value out of range, a file that is not JSON, a provider that does not exist.
      {
        args: ['kb', 'search', 'x', '--kb', missing, '--config', badValue],
        code: 2,
        stderr: /llm\.temperature/,
      },
      {
        args: ['kb', 'search', 'x', '--kb', missing, '--config', notJson],
        code: 2,
        stderr: /not valid JSON/,
      },
      {
        args: ['kb', 'search', 'x', '--kb', base],
        env: { DEEPSEARCH_EMBEDDING_PROVIDER: 'nope' },
        code: 2,
        stderr: /unknown embedding provider 'nope'/,
      },
      // No base there: what to run instead.
      { args: ['kb', 'search', 'x', '--kb', missing], code: 2, stderr: /no knowledge base at .*kb add/ },
      // InputError, and commander's usage error.
      { args: ['kb', 'search', 'x', '--kb', base, '--limit', 'abc'], code: 2, stderr: /--limit must be/ },
      { args: ['kb', 'serch', 'x'], code: 2, stderr: /unknown command 'serch'/ },
      // ProviderError: the search service is down.
      {
        args: ['search', 'anything', '--search-provider', 'searxng', '--searxng-url', searxng],
        code: 3,
        stderr: /searxng/i,
      },
    ];
    for (const { args, env = {}, code, stderr } of cases) {
      const bundled = await runBuiltCli(args, env);
      const modules = await runModules(args, env);
      expect(bundled.code, args.join(' ')).toBe(code);
      expect(bundled.stderr).toMatch(/^deepsearch: error: /);
      expect(bundled.stderr).toMatch(stderr);
      expect(bundled.stderr).not.toMatch(/\n\s+at /);
      expect(modules).toEqual(bundled);
    }
  }, 120_000);

  it('prints the same hits, and finds package.json and the setting flags of a nested command', async () => {
    const base = join(work, 'kb.sqlite');
    const hits = await runBuiltCli(['kb', 'search', 'key rotation', '--kb', base]);
    expect(hits.code).toBe(0);
    expect(hits.stdout).toContain('Signing keys are rotated every ninety days');
    expect(await runModules(['kb', 'search', 'key rotation', '--kb', base], {})).toEqual(hits);
    const version = await runBuiltCli(['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(await runModules(['--version'], {})).toEqual(version);
    const help = await runBuiltCli(['kb', 'search', '--help-all']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--rerank-provider');
    expect(await runModules(['kb', 'search', '--help-all'], {})).toEqual(help);
  });
});

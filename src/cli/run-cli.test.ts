import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { settingSources } from '../config/setting-sources.js';
import type { CliIo } from './io/cli-io.js';
import { runCli } from './run-cli.js';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    argv: ['node', 'deepsearch', ...args],
    env: {},
    cwd: process.cwd(),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Object.assign(Readable.from([]), { isTTY: true }),
    signal: new AbortController().signal,
  };
  const code = await runCli(io);
  return { code, stdout, stderr };
}

/** The flags --help lists: the first `--name` of each option line. */
function listedFlags(help: string): Set<string> {
  return new Set([...help.matchAll(/^ {2}(?:-\w, )?--([a-z][a-z-]*)/gm)].map((match) => match[1]!));
}

const askRoles = ['agent', 'beast', 'evaluator', 'analyzer', 'rewriter'];
const researchRoles = [...askRoles, 'planner', 'librarian', 'writer'];
/** The setting flags a command uses; per-role LLM flags only for the roles it calls. */
const settingFlags = (uses: (path: string) => boolean, roles: readonly string[] = []) =>
  settingSources()
    .filter((source) => {
      const role = /^llm\.roles\.([a-z]+)\./.exec(source.path)?.[1];
      return source.flag && (role === undefined || roles.includes(role));
    })
    .filter((source) => source.path === 'debug' || uses(source.path))
    .map((source) => source.flag!);

// What each command lists: its own flags and the settings it uses, nothing else (read and search
// take no LLM flags, no budget, no retrieval services).
const commands = {
  ask: [
    'json',
    'output',
    'quiet',
    'kb',
    'yes',
    'config',
    ...settingFlags((path) => !path.startsWith('server.') && !path.startsWith('research.'), askRoles),
  ],
  search: [
    'json',
    'quiet',
    'count',
    'time-range',
    'site',
    'lang',
    'region',
    'kb',
    'config',
    'search-provider',
    'searxng-url',
    'search-results',
    'search-concurrency',
    'allow-private-network',
    'no-cache',
    'cache-dir',
    'proxy',
    'proxy-bypass',
    'debug',
  ],
  read: [
    'format',
    'json',
    'config',
    'allow-private-network',
    'allow-files',
    'file-roots',
    'reader-timeout',
    'reader',
    'respect-robots-txt',
    'chromium-path',
    'reader-max-bytes',
    'extract-timeout',
    'extract-memory-mb',
    'max-pdf-pages',
    'no-cache',
    'cache-dir',
    'proxy',
    'proxy-bypass',
    'debug',
  ],
  serve: ['config', 'yes', ...settingFlags(() => true, researchRoles)],
  init: [
    'config',
    'llm-provider',
    'llm-base-url',
    'llm-model',
    'search-provider',
    'searxng-url',
    'force',
    'yes',
  ],
  doctor: [
    'page',
    'config',
    ...settingFlags((path) =>
      /^(llm\.[a-zA-Z]+$|search\.(provider|searxngUrl)$|reader\.|cache\.|network\.)/.test(path),
    ),
  ],
};

describe('deepsearch --help', () => {
  it('lists every command', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const name of Object.keys(commands)) expect(help.stdout).toMatch(new RegExp(`^ {2}${name} `, 'm'));
  });

  it.each(Object.entries(commands))(
    '%s --help-all lists its own flags and the settings it uses, with examples; --help a part of them',
    async (name, flags) => {
      // init takes no setting flags: its --help is already all of it.
      const help = await run([name, name === 'init' ? '--help' : '--help-all']);
      expect(help.code).toBe(0);
      expect(help.stderr).toBe('');
      const listed = listedFlags(help.stdout);
      const own = name === 'init' ? [] : ['help-all'];
      expect([...listed].sort()).toEqual([...flags, ...own, 'help'].sort());
      const short = await run([name, '--help']);
      const shortListed = [...listedFlags(short.stdout)];
      expect(shortListed.every((flag) => listed.has(flag))).toBe(true);
      const examples = help.stdout.slice(help.stdout.indexOf('\nExamples:\n'));
      expect(
        examples.match(new RegExp(`^ {2}\\$ deepsearch ${name}\\b`, 'gm'))?.length,
      ).toBeGreaterThanOrEqual(2);
    },
  );

  it('read and search list no LLM flag', async () => {
    for (const name of ['read', 'search']) {
      const help = await run([name, '--help']);
      expect(help.stdout).not.toMatch(/--llm-/);
      expect(help.stdout).not.toMatch(/--max-steps/);
    }
  });

  it('points at init and the config file from the top-level help, and prints the version', async () => {
    const help = await run(['--help']);
    expect(help.stdout).toContain('deepsearch init writes deepsearch.config.json');
    expect(help.stdout).toContain('deepsearch doctor');
    const version = await run(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('keeps per-role LLM flags of roles a command does not call out of its help, but accepts them', async () => {
    const help = await run(['ask', '--help-all']);
    expect(help.stdout).toContain('--llm-agent-model');
    expect(help.stdout).not.toContain('--llm-planner-model');
    // Accepted: the run gets as far as checking --format.
    const hiddenFlag = await run(['read', '--llm-agent-model', 'x', '--format', 'xml', 'page.html']);
    expect(hiddenFlag.code).toBe(2);
    expect(hiddenFlag.stderr).toBe(
      'deepsearch: error: --format must be one of markdown, text, json (got "xml")\n',
    );
  });

  it('answers an unknown command or flag with one line and exit code 2', async () => {
    const command = await run(['asc']);
    expect(command.code).toBe(2);
    expect(command.stderr).toBe(
      "deepsearch: error: unknown command 'asc' (Did you mean ask?) (see deepsearch --help)\n",
    );
    const flag = await run(['read', '--formt', 'json']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^deepsearch: error: unknown option '--formt'/);
  });
});

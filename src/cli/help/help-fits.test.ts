import { describe, expect, it } from 'vitest';
import { runCliInMemory } from '../../../test/helpers/run-cli-in-memory.js';
import { fileOnlySettings, settingSources } from '../../config/setting-sources.js';
import { roleFieldNames, schemaSettingPaths, settingsReference } from '../../config/settings-reference.js';

const run = (args: string[]) => runCliInMemory(args, { env: {}, cwd: process.cwd() });

/** Rows on an 80-column terminal: a longer line (an example) takes several. */
function screenRows(text: string): number {
  return text
    .replace(/\n$/, '')
    .split('\n')
    .reduce((rows, line) => rows + Math.max(1, Math.ceil(line.length / 80)), 0);
}

/** The names under "Commands:" in a help text. */
function subcommands(help: string): string[] {
  const section = help.split(/^Commands:\n/m)[1]?.split(/\n\n/)[0] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)]
    .map((match) => match[1]!)
    .filter((name) => name !== 'help');
}

/** Every command path, from the top-level help down (`kb add`...). */
async function everyCommand(): Promise<string[][]> {
  const found: string[][] = [[]];
  for (let at = 0; at < found.length; at++) {
    const help = await run([...found[at]!, '--help']);
    for (const name of subcommands(help.stdout)) found.push([...found[at]!, name]);
  }
  return found;
}

describe('help that fits a screen', () => {
  it('prints every command’s --help in at most 45 rows of an 80-column terminal', async () => {
    const commands = await everyCommand();
    expect(commands.map((path) => path.join(' '))).toEqual(
      expect.arrayContaining(['ask', 'research', 'serve', 'eval', 'kb add', 'runs list', 'model pull']),
    );
    const tooLong: string[] = [];
    for (const path of commands) {
      const help = await run([...path, '--help']);
      expect(help.code).toBe(0);
      const rows = screenRows(help.stdout);
      if (rows > 45) tooLong.push(`deepsearch ${path.join(' ')} --help: ${rows} rows`);
    }
    expect(tooLong).toEqual([]);
  });

  it('groups the first-run settings of ask under model, search, budget and output, and points at the rest', async () => {
    const help = (await run(['ask', '--help'])).stdout;
    for (const heading of ['Model:', 'Search:', 'Budget:', 'Output:', 'Examples:']) {
      expect(help).toMatch(new RegExp(`^${heading}$`, 'm'));
    }
    expect(help).toContain('--llm-model <value>');
    expect(help).toContain('--max-tokens <integer>');
    expect(help).not.toContain('--dedup-threshold');
    expect(help).toMatch(/\d+ more settings: deepsearch ask --help-all\. All: deepsearch help settings/);
    const all = (await run(['ask', '--help-all'])).stdout;
    expect(all).toMatch(/^Other settings:$/m);
    expect(all).toContain('--dedup-threshold <number>');
    expect(all).not.toContain('more settings:');
  });
});

describe('deepsearch help settings', () => {
  it('lists every setting: its flag, variables and config key', async () => {
    const { code, stdout } = await run(['help', 'settings']);
    expect(code).toBe(0);
    for (const source of settingSources()) {
      const role = /^llm\.roles\.([a-z]+)\.([a-zA-Z]+)$/.exec(source.path);
      if (role) {
        // One row per role field, with the role written <role>; the roles are named in it.
        expect(stdout).toContain(`llm.roles.<role>.${role[2]}`);
        expect(stdout).toContain(role[1]);
        continue;
      }
      expect(stdout).toContain(source.path);
      if (source.flag) expect(stdout).toContain(`--${source.flag}`);
      if (source.env) expect(stdout).toContain(source.env);
    }
    for (const path of Object.keys(fileOnlySettings())) expect(stdout).toContain(path);
  });

  it('documents every key of the config schema, so a new setting cannot go unlisted', () => {
    const documented = new Set(
      settingsReference().flatMap((group) => group.settings.map((setting) => setting.path)),
    );
    for (const field of roleFieldNames) expect(documented.has(`llm.roles.<role>.${field}`)).toBe(true);
    expect(schemaSettingPaths().filter((path) => !documented.has(path))).toEqual([]);
    // A key that gains a variable or flag leaves the file-only list, or its entry would hide them.
    const withSource = new Set(settingSources().map((source) => source.path));
    expect(Object.keys(fileOnlySettings()).filter((path) => withSource.has(path))).toEqual([]);
  });

  it('filters by words, and says when nothing matches', async () => {
    const proxy = (await run(['help', 'settings', 'proxy'])).stdout;
    expect(proxy).toContain('--proxy-bypass');
    expect(proxy).not.toContain('--max-steps');
    const none = await run(['help', 'settings', 'no-such-setting']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('No setting matches "no-such-setting"');
  });

  it('shows a command’s help, and refuses an unknown one', async () => {
    const help = await run(['help', 'kb', 'add']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: deepsearch kb add /);
    // The same help as the command's own --help, its setting flags included (they are defined
    // only when a command runs or shows its help).
    expect(help.stdout).toBe((await run(['kb', 'add', '--help'])).stdout);
    expect(help.stdout).toContain('--embedding-provider');
    const unknown = await run(['help', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("deepsearch: error: unknown command 'nope' (see deepsearch --help)\n");
  });
});

describe('usage errors', () => {
  it('point at the help of the command that was mistyped', async () => {
    const flag = await run(['ask', '--max-step', '3', 'a question']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--max-step'");
    expect(flag.stderr).toContain('Did you mean --max-steps?');
    expect(flag.stderr).toMatch(/\(see deepsearch ask --help\)\n$/);
    const nested = await run(['kb', 'serch', 'x']);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toMatch(/\(see deepsearch kb --help\)\n$/);
  });
});

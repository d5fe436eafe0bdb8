import { type Command, Option } from 'commander';
import {
  describedWithDefault,
  flagPlaceholder,
  type SettingSource,
  settingSources,
} from '../../config/setting-sources.js';

/** The LLM roles a deep search calls; research adds its own, eval its judge. */
const askRoles = ['agent', 'beast', 'evaluator', 'analyzer', 'rewriter'];
const researchRoles = [...askRoles, 'planner', 'librarian', 'writer'];

/** The roles whose per-role flags a command's --help lists: those it calls. */
const rolesUsedBy: Readonly<Record<SettingFlagScope, readonly string[]>> = {
  ask: askRoles,
  research: researchRoles,
  eval: [...askRoles, 'judge'],
  mcp: researchRoles,
  serve: researchRoles,
  search: [],
  read: [],
  doctor: [],
  kb: ['analyzer'],
};

/** The commands that take setting flags; each lists in --help only the settings it uses. */
export type SettingFlagScope =
  | 'ask'
  | 'research'
  | 'eval'
  | 'search'
  | 'read'
  | 'serve'
  | 'doctor'
  | 'kb'
  | 'mcp';

const searchCommandPaths = new Set([
  'search.provider',
  'search.searxngUrl',
  'search.resultsPerQuery',
  'search.concurrency',
  // Hits on private hosts are dropped unless the reader may go there.
  'reader.allowPrivateNetwork',
]);

const doctorPaths = /^(llm\.[a-zA-Z]+$|search\.(provider|searxngUrl)$|reader\.|cache\.|network\.)/;

const usedBy: Readonly<Record<SettingFlagScope, (path: string) => boolean>> = {
  // Research mode's controller settings mean nothing to a single deep search.
  ask: (path) => !path.startsWith('server.') && !path.startsWith('research.'),
  research: (path) => !path.startsWith('server.'),
  // Every question of an evaluation is an ask, with the same budgets and providers.
  eval: (path) => !path.startsWith('server.') && !path.startsWith('research.'),
  // The MCP tools run the agent, searches and reads (and research): everything ask uses, and research's.
  mcp: (path) => !path.startsWith('server.'),
  serve: () => true,
  search: (path) => searchCommandPaths.has(path) || /^(cache|network)\./.test(path),
  read: (path) => /^(reader|cache|network)\./.test(path),
  doctor: (path) => doctorPaths.test(path),
  // kb add reads files and URLs, embeds chunks and (--analyze) asks the analyzer role.
  kb: (path) => /^(embedding|rerank|retrieval|reader|knowledge|cache|llm|network)\./.test(path),
};

/**
 * The settings a first run needs: the heading --help shows each under, and a line short enough
 * for one row of an 80-column terminal (the full description, from the settings table, is in
 * --help-all, `deepsearch help settings` and docs/configuration.md). A command shows those it
 * uses; the rest stay out of --help, which must fit a screen.
 */
const firstRun: Readonly<Record<string, readonly [heading: string, summary: string]>> = {
  'llm.provider': ['Model:', 'openai, anthropic, google, openai-compatible...'],
  'llm.baseURL': ['Model:', 'a server, e.g. http://localhost:11434/v1'],
  'llm.model': ['Model:', 'model id'],
  'search.provider': ['Search:', 'auto (default), searxng, duckduckgo... or a chain'],
  'search.searxngUrl': ['Search:', 'your SearXNG instance (JSON format on)'],
  'search.onlyHostnames': ['Search:', 'search and read only these hosts'],
  'budget.maxSteps': ['Budget:', 'agent steps (default 30; research scales its own)'],
  'budget.maxTokens': ['Budget:', 'LLM tokens for the run (default 1000000)'],
  'budget.maxTimeSeconds': ['Budget:', 'seconds for the run (default 600)'],
  'research.maxHops': ['Budget:', 'search hops per section (default 3)'],
  'reader.provider': ['Reading:', 'auto (default), builtin, browser or jina'],
  'reader.timeoutSeconds': ['Reading:', 'seconds per page fetch (default 20)'],
  'embedding.provider': ['Retrieval:', 'builtin (default), jina, openai...'],
  'server.host': ['Server:', 'address to listen on (default 127.0.0.1)'],
  'server.port': ['Server:', 'port (default 3000)'],
  'server.maxConcurrent': ['Server:', 'runs at once (default 8)'],
  debug: ['Output:', 'verbose diagnostics, stack traces'],
};

/** First-run settings that only some commands show: reading and retrieval where they are the job. */
const firstRunOnlyFor: Readonly<Record<string, readonly SettingFlagScope[]>> = {
  'reader.provider': ['read'],
  'reader.timeoutSeconds': ['read'],
  'embedding.provider': ['kb'],
  // Research scales its own steps with sections x hops, but a run cut by them names --max-steps.
  'budget.maxSteps': ['ask', 'research', 'mcp', 'serve'],
  'search.onlyHostnames': ['ask', 'research', 'mcp', 'serve'],
};

/** A command's own options shown under "Output:" rather than "Options:". */
const outputOptions = new Set(['--json', '--quiet', '--output', '--format']);

/**
 * Adds a flag for every setting that has one. --help lists the first-run settings the command uses
 * (`scope`), grouped; --help-all adds every other setting it uses. The rest are still accepted,
 * hidden, so a flag shared by a script's several commands never turns into a usage error. The
 * server's own settings (port, host...) exist only on `serve`.
 *
 * The flags are defined when the command is about to parse its arguments (its parent's
 * preSubcommand hook) or show its help (withSettingFlags): some 125 options on each of a dozen
 * commands cost a short command such as `kb search` more than its search did.
 */
export function addSettingFlags(command: Command, options: { scope: SettingFlagScope }): Command {
  for (const option of command.options) {
    if (!option.helpGroupHeading && outputOptions.has(option.long ?? '')) option.helpGroup('Output:');
  }
  const parent = command.parent;
  if (!parent) return defineSettingFlags(command, options.scope);
  pendingFlags.set(command, options.scope);
  if (!hookedParents.has(parent)) {
    hookedParents.add(parent);
    parent.hook('preSubcommand', (_parent, subcommand) => {
      withSettingFlags(subcommand);
    });
  }
  return command;
}

/** Commands whose setting flags are not defined yet, with their scope. */
const pendingFlags = new WeakMap<Command, SettingFlagScope>();
const hookedParents = new WeakSet<Command>();

/** The command with its setting flags defined (before showing its help outside of a parse). */
export function withSettingFlags(command: Command): Command {
  const scope = pendingFlags.get(command);
  if (scope === undefined) return command;
  pendingFlags.delete(command);
  return defineSettingFlags(command, scope);
}

function defineSettingFlags(command: Command, scope: SettingFlagScope): Command {
  const uses = usedBy[scope];
  const others: Option[] = [];
  for (const source of settingSources()) {
    if (!source.flag || (source.path.startsWith('server.') && scope !== 'serve')) continue;
    const used = source.path === 'debug' || uses(source.path);
    const [heading, summary] = firstRun[source.path] ?? [];
    const shown = used && heading && (firstRunOnlyFor[source.path]?.includes(scope) ?? true);
    const option = settingOption(
      source,
      shown ? summary! : `${describedWithDefault(source)}${source.env ? ` [env ${source.env}]` : ''}`,
    );
    const role = /^llm\.roles\.([a-z]+)\./.exec(source.path)?.[1];
    if (shown) option.helpGroup(heading);
    else {
      option.hideHelp();
      // Per-role flags: in --help-all for the roles the command calls.
      if (used && (role === undefined || rolesUsedBy[scope].includes(role)))
        others.push(option.helpGroup('Other settings:'));
    }
    command.addOption(option);
  }
  return addHelpAll(command, others);
}

function settingOption(source: SettingSource, description: string): Option {
  const placeholder = flagPlaceholder(source);
  return new Option(`--${source.flag}${placeholder ? ` <${placeholder}>` : ''}`, description);
}

/** --help-all: the help with every setting the command uses; and a pointer to it under --help. */
function addHelpAll(command: Command, others: readonly Option[]): Command {
  command.option('--help-all', 'this help with every setting the command takes');
  command.on('option:help-all', () => {
    for (const option of others) option.hidden = false;
    command.help();
  });
  const name = invocation(command);
  return command.addHelpText('afterAll', () =>
    others.some((option) => option.hidden)
      ? `${others.length} more settings: ${name} --help-all. All: deepsearch help settings\n`
      : '',
  );
}

/** `deepsearch kb add`: the words that run this command. */
function invocation(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** "Examples:" after a command's help, one `$ deepsearch ...` line each. */
export function addExamples(command: Command, examples: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/** The setting flags given on the command line, keyed by flag name, for loadConfig. */
export function collectSettingFlags(command: Command): Record<string, unknown> {
  const values = command.opts();
  const flags: Record<string, unknown> = {};
  for (const source of settingSources()) {
    if (!source.flag) continue;
    const negated = source.flag.startsWith('no-');
    const attribute = camelCase(negated ? source.flag.slice(3) : source.flag);
    if (command.getOptionValueSource(attribute) !== 'cli') continue;
    flags[source.flag] = negated ? values[attribute] === false : values[attribute];
  }
  return flags;
}

function camelCase(flag: string): string {
  return flag.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

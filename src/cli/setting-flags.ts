import { type Command, Option } from 'commander';
import { settingSources } from '../config/setting-sources.js';

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
 * Adds a flag for every setting that has one. --help lists those the command uses (`scope`),
 * per-role LLM flags only for the roles it calls; the others are still accepted, hidden, so a flag
 * shared by a script's several commands never turns into a usage error. The server's own settings
 * (port, host...) exist only on `serve`.
 */
export function addSettingFlags(command: Command, options: { scope: SettingFlagScope }): Command {
  const uses = usedBy[options.scope];
  for (const source of settingSources) {
    if (!source.flag || (source.path.startsWith('server.') && options.scope !== 'serve')) continue;
    const takesValue = source.type !== 'boolean';
    const option = new Option(
      takesValue
        ? `--${source.flag} <${source.type === 'string' ? 'value' : source.type === 'list' ? 'a,b' : source.type}>`
        : `--${source.flag}`,
      `${source.description}${source.env ? ` [env ${source.env}]` : ''}`,
    );
    const role = /^llm\.roles\.([a-z]+)\./.exec(source.path)?.[1];
    const listed =
      source.path === 'debug' ||
      (uses(source.path) && (role === undefined || rolesUsedBy[options.scope].includes(role)));
    if (!listed) option.hideHelp();
    command.addOption(option);
  }
  return command;
}

/** "Examples:" after a command's help, one `$ deepsearch ...` line each. */
export function addExamples(command: Command, examples: readonly string[]): Command {
  return command.addHelpText('after', `\nExamples:\n${examples.map((line) => `  $ ${line}`).join('\n')}\n`);
}

/** The setting flags given on the command line, keyed by flag name, for loadConfig. */
export function collectSettingFlags(command: Command): Record<string, unknown> {
  const values = command.opts();
  const flags: Record<string, unknown> = {};
  for (const source of settingSources) {
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

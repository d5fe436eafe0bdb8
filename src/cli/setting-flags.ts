import { type Command, Option } from 'commander';
import { settingSources } from '../config/setting-sources.js';

const visibleRoleFlags = /^llm-(agent|beast|evaluator|analyzer|rewriter)-/;

/**
 * Adds a flag for every setting that has one; per-role flags work but stay out of --help. The
 * server's own settings (port, host...) are added only when `server` is set, for `serve`.
 */
export function addSettingFlags(command: Command, options: { server?: boolean } = {}): Command {
  for (const source of settingSources) {
    if (!source.flag || (source.path.startsWith('server.') && !options.server)) continue;
    const takesValue = source.type !== 'boolean';
    const option = new Option(
      takesValue
        ? `--${source.flag} <${source.type === 'string' ? 'value' : source.type}>`
        : `--${source.flag}`,
      `${source.description}${source.env ? ` [env ${source.env}]` : ''}`,
    );
    if (visibleRoleFlags.test(source.flag)) option.hideHelp();
    command.addOption(option);
  }
  return command;
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

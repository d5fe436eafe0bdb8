import type { Command } from 'commander';
import { InputError } from '../../../core/errors/index.js';
import { configFlag } from '../../flags/config-flag.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

export const readFormats = ['markdown', 'text', 'json'] as const;
export type ReadFormat = (typeof readFormats)[number];

/** Registers `deepsearch read`; the page reader is loaded only when it runs. */
export function addReadCommand(program: Command, io: CliIo): void {
  const read = addSettingFlags(
    program
      .command('read')
      .description('read pages (URLs, local files, or - for stdin) and print their main content')
      .argument('[inputs...]', 'http(s) URLs, file paths, or - for stdin; several are read concurrently')
      .option('--format <format>', `output: ${readFormats.join(', ')} (json: one line per input)`, 'markdown')
      .option('--json', 'same as --format json: one JSON line per input')
      .addOption(configFlag()),
    { scope: 'read' },
  );
  addExamples(read, [
    'deepsearch read https://en.wikipedia.org/wiki/Web_search_engine',
    'deepsearch read --format text saved-page.html',
    'curl -s https://example.com | deepsearch read --json -',
  ]);
  read.action(async (inputs: string[], options: { format: string; json?: boolean; config?: string }) => {
    if (options.json && read.getOptionValueSource('format') === 'cli' && options.format !== 'json')
      throw new InputError(`--json and --format ${options.format} disagree: give one of them`, {
        param: 'format',
      });
    const format = parseFormat(options.json ? 'json' : options.format);
    const { runReadCommand } = await import('./run-read-command.js');
    await runReadCommand(io, {
      inputs,
      format,
      flags: collectSettingFlags(read),
      configPath: options.config,
    });
  });
}

function parseFormat(format: string): ReadFormat {
  if ((readFormats as readonly string[]).includes(format)) return format as ReadFormat;
  throw new InputError(`--format must be one of ${readFormats.join(', ')} (got "${format}")`, {
    param: 'format',
  });
}

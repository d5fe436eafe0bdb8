import { type Command, Option } from 'commander';
import type { ReportTextFormat } from '../../../research/render-report.js';
import { configFlag } from '../../flags/config-flag.js';
import { kbMergeFlagDescription } from '../../flags/kb-merge-flag.js';
import { reportFormats } from '../../flags/report-formats.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

export interface ResearchCommandFlags {
  output?: string;
  format?: ReportTextFormat;
  json?: boolean;
  outlineOnly?: boolean;
  outline?: string;
  quiet?: boolean;
  config?: string;
  /** --kb: true, or the knowledge base file. */
  kb?: string | boolean;
  yes?: boolean;
}

/** Registers `deepsearch research`; research mode and its providers are loaded only when it runs. */
export function addResearchCommand(program: Command, io: CliIo): void {
  const command = addSettingFlags(
    program
      .command('research')
      .description('research a topic and write a structured, cited, fact-checked report')
      .argument('[topic...]', "the topic (else stdin, or the outline's)")
      .option('-o, --output <file>', 'write the report here (.md, .html or .json)')
      .addOption(new Option('--format <format>', 'default md').choices([...reportFormats]))
      .option('--json', 'same as --format json')
      .option('--outline-only', 'plan only: print the outline to edit, and stop')
      .option('--outline <file>', 'research this outline instead of planning')
      .option('--kb [path]', kbMergeFlagDescription)
      .option('--yes', 'download the default local model without asking')
      .option('--quiet', 'no progress on stderr')
      .addOption(configFlag()),
    { scope: 'research' },
  );
  addExamples(command, [
    'deepsearch research "heat pump sales in Europe since 2019" -o report.md',
    // Then `--outline outline.md` (under Options): --help must fit a screen with --max-steps listed.
    'deepsearch research "..." --outline-only > outline.md',
  ]);
  command.action(async (words: string[], flags: ResearchCommandFlags) => {
    const { runResearchCommand } = await import('./run-research-command.js');
    await runResearchCommand(io, { words, flags, settingFlags: collectSettingFlags(command) });
  });
}

import { type Command, Option } from 'commander';
import type { CliIo } from './cli-io.js';
import { kbMergeFlagDescription } from './kb-merge-flag.js';
import { addExamples, addSettingFlags, collectSettingFlags } from './setting-flags.js';

export const reportFormats = ['md', 'html', 'json'] as const;
export type ReportFormat = (typeof reportFormats)[number];

export interface ResearchCommandFlags {
  output?: string;
  format?: ReportFormat;
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
      .argument('[topic...]', 'the topic (read from stdin when none is given; optional with --outline)')
      .option(
        '-o, --output <file>',
        'write the report to this file (format from its extension: .md, .html, .json)',
      )
      .addOption(new Option('--format <format>', 'report format (default md)').choices([...reportFormats]))
      .option(
        '--json',
        'same as --format json: one JSON document {title, summary, markdown, sections, references, followUps, plan, factCheck, ...}',
      )
      .option('--outline-only', 'only plan: print the outline as editable markdown and stop')
      .option('--outline <file>', 'research this outline (from --outline-only, edited) instead of planning')
      .option('--kb [path]', kbMergeFlagDescription)
      .option(
        '--yes',
        'with no LLM set up, download the default local model without asking (see deepsearch model)',
      )
      .option('--quiet', 'no progress on stderr')
      .option('--config <path>', 'config file (default ./deepsearch.config.json) [env DEEPSEARCH_CONFIG]'),
    { scope: 'research' },
  );
  addExamples(command, [
    'deepsearch research "How did European heat pump adoption change between 2019 and 2024, and why?" -o report.md',
    'deepsearch research "..." --outline-only > outline.md',
    'deepsearch research --outline outline.md --format html -o report.html',
    'deepsearch research --kb "what do our audits say about key rotation, and what is current practice?"',
    'deepsearch research --json --max-tokens 400000 --max-time 900 "state of WebGPU support" > report.json',
  ]);
  command.action(async (words: string[], flags: ResearchCommandFlags) => {
    const { runResearchCommand } = await import('./run-research-command.js');
    await runResearchCommand(io, { words, flags, settingFlags: collectSettingFlags(command) });
  });
}

import { type Command, Option } from 'commander';
import type { ReportTextFormat } from '../../../research/render-report.js';
import { configFlag } from '../../flags/config-flag.js';
import { reportFormats } from '../../flags/report-formats.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

interface ResumeFlags {
  json?: boolean;
  quiet?: boolean;
  config?: string;
  output?: string;
  format?: ReportTextFormat;
}

/**
 * Registers `deepsearch resume <id>`: goes on with a stored run from its last checkpoint. The run
 * store and the agent are loaded only when it runs.
 */
export function addResumeCommand(program: Command, io: CliIo): void {
  const resume = addSettingFlags(
    program
      .command('resume')
      .description('go on with a run from its last checkpoint (after a crash, a kill or a budget stop)')
      .argument('<id>', 'the run id, or a unique prefix of it')
      .option('--json', 'print one JSON document, as ask or research does')
      .option('-o, --output <file>', 'a research run: write the report here')
      .addOption(new Option('--format <format>', 'a research run: report format').choices([...reportFormats]))
      .option('--quiet', 'no progress on stderr')
      .addOption(configFlag()),
    // A research run takes research's flags too (--max-hops...).
    { scope: 'research' },
  );
  addExamples(resume, [
    'deepsearch resume 3f2a',
    'deepsearch resume 3f2a --max-tokens 2000000 --max-steps 60',
    'deepsearch resume 9c1e -o report.md',
  ]);
  resume.action(async (id: string, options: ResumeFlags) => {
    const { runResumeCommand } = await import('./run-resume-command.js');
    await runResumeCommand(io, {
      id,
      flags: collectSettingFlags(resume),
      json: options.json ?? false,
      quiet: options.quiet ?? false,
      configPath: options.config,
      report: { output: options.output, format: options.format },
    });
  });
}

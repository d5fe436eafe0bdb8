import { type Command, InvalidArgumentError, Option } from 'commander';
import { datasetFormats } from '../../../eval/eval-types.js';
import { configFlag } from '../../flags/config-flag.js';
import { addExamples, addSettingFlags, collectSettingFlags } from '../../flags/setting-flags.js';
import type { CliIo } from '../../io/cli-io.js';

export interface EvalCommandFlags {
  dataset: string;
  format?: (typeof datasetFormats)[number];
  limit?: number;
  concurrency: number;
  out?: string;
  resume?: boolean;
  judgeModel?: string;
  offlineCorpus?: boolean;
  json?: boolean;
  report?: string;
  quiet?: boolean;
  config?: string;
}

function positiveInteger(name: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1)
      throw new InvalidArgumentError(`${name} must be a whole number of at least 1`);
    return parsed;
  };
}

/** Registers `deepsearch eval`; the harness, the agent and the judge load only when it runs. */
export function addEvalCommand(program: Command, io: CliIo): void {
  const command = addSettingFlags(
    program
      .command('eval')
      .description(
        'run a benchmark (SimpleQA, FRAMES, HotpotQA, BrowseComp-Plus, JSONL) and grade the answers',
      )
      .requiredOption('--dataset <file>', 'questions: CSV, JSON or JSON lines')
      .addOption(
        new Option('--format <name>', 'force the dataset format')
          .helpGroup('Options:')
          .choices([...datasetFormats]),
      )
      .option('--limit <n>', 'only the first n questions', positiveInteger('--limit'))
      .option('--concurrency <k>', 'questions run at once', positiveInteger('--concurrency'), 1)
      .option('--out <file>', 'append a JSON line per graded question here')
      .option('--resume', 'go on with --out: skip the questions graded there')
      .option('--judge-model <model>', 'model that grades (default: the LLM model)')
      .option('--offline-corpus', "HotpotQA: search only the dataset's paragraphs")
      .option('--json', 'print the summary as one JSON document on stdout')
      .option('--report <file>', 'write a markdown report here')
      .option('--quiet', 'no progress on stderr')
      .addOption(configFlag()),
    { scope: 'eval' },
  );
  addExamples(command, [
    'deepsearch eval --dataset simpleqa.csv --limit 50 --out simpleqa.jsonl',
    'deepsearch eval --dataset frames.csv --concurrency 4 --judge-model gpt-4.1',
    'deepsearch eval --dataset hotpotqa.json --offline-corpus --limit 20',
  ]);
  command.action(async (flags: EvalCommandFlags) => {
    const { runEvalCommand } = await import('./run-eval-command.js');
    await runEvalCommand(io, { flags, settingFlags: collectSettingFlags(command) });
  });
}

import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import { withSettings } from '../../../config/frozen-config.js';
import { AbortedError, InputError } from '../../../core/errors/index.js';
import { readDataset } from '../../../eval/dataset/read-dataset.js';
import type { EvalRecord } from '../../../eval/eval-types.js';
import {
  buildOfflineCorpus,
  hasContext,
  offlineCollection,
  offlineCorpusFile,
} from '../../../eval/offline-corpus.js';
import { renderEvalReport } from '../../../eval/render-eval-report.js';
import {
  appendResult,
  gradedIds,
  latestRecords,
  readResultsFile,
  repairResultsFile,
} from '../../../eval/results-file.js';
import { runEval } from '../../../eval/run-eval.js';
import { summarizeResults } from '../../../eval/summarize-results.js';
import { summaryRows } from '../../../eval/summary-rows.js';
import { localSearchId } from '../../../knowledge/local-search-provider.js';
import type { CliIo } from '../../io/cli-io.js';
import { ReportedFailure } from '../../io/exit-codes.js';
import { assertWritableFile } from '../../io/output-file.js';
import { createTerminal } from '../../io/terminal-style.js';
import { createCliRuntime } from '../../setup/create-cli-runtime.js';
import { prepareLlm, prepareSearch } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import type { EvalCommandFlags } from './eval-command.js';
import { createEvalProgress } from './eval-progress.js';

/** `deepsearch eval`: every question asked and graded, results appended as they come, then the summary. */
export async function runEvalCommand(
  io: CliIo,
  input: { flags: EvalCommandFlags; settingFlags: Record<string, unknown> },
): Promise<void> {
  const { flags } = input;
  const out = flags.out ? resolve(io.cwd, flags.out) : undefined;
  checkOutFile(out, flags.resume ?? false);
  // Neither file may fail only after every question was run and graded.
  if (out) assertWritableFile(out, '--out', flags.out!);
  if (flags.report) assertWritableFile(resolve(io.cwd, flags.report), '--report', flags.report);
  const datasetFile = resolve(io.cwd, flags.dataset);
  const dataset = await readDataset({ file: datasetFile, format: flags.format });
  const questions = dataset.questions.slice(0, flags.limit ?? dataset.questions.length);
  if (flags.offlineCorpus && !hasContext(questions))
    throw new InputError(
      `--offline-corpus needs context paragraphs to search, and ${flags.dataset} (${dataset.format}) has none: use a HotpotQA file`,
    );
  const settingFlags = { ...input.settingFlags };
  if (flags.judgeModel) settingFlags['llm-judge-model'] = flags.judgeModel;
  const loaded = loadCliConfig(io, settingFlags, flags.config);
  const workDir = flags.offlineCorpus ? mkdtempSync(join(tmpdir(), 'deepsearch-eval-')) : undefined;
  try {
    const offline = workDir ? offlineSearchConfig(loaded, workDir) : loaded;
    const config = await prepareLlm(io, offline, { quiet: flags.quiet });
    if (!workDir) prepareSearch(io, config, { quiet: flags.quiet });
    const runtime = createCliRuntime(io, config);
    try {
      if (workDir) {
        const corpus = await buildOfflineCorpus({
          questions,
          dir: workDir,
          embedding: runtime.embedding,
          signal: io.signal,
        });
        if (!flags.quiet)
          io.stderr.write(
            `deepsearch: offline corpus: ${corpus.paragraphs} paragraphs (${corpus.chunks} chunks), searched with provider local\n`,
          );
      }
      await evaluate(io, { flags, out, datasetFile, format: dataset.format, questions, config, runtime });
    } finally {
      runtime.close();
    }
  } finally {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }
}

async function evaluate(
  io: CliIo,
  context: {
    flags: EvalCommandFlags;
    out: string | undefined;
    datasetFile: string;
    format: string;
    questions: Awaited<ReturnType<typeof readDataset>>['questions'];
    config: DeepSearchConfig;
    runtime: ReturnType<typeof createCliRuntime>;
  },
): Promise<void> {
  const { flags, out, questions, runtime } = context;
  const selected = new Set(questions.map((question) => question.id));
  const stored = out ? readResultsFile(out) : { records: [], partialTail: 0 };
  if (out) {
    repairResultsFile(out, stored);
    // Fail now, not after the first question, when the file cannot be written.
    writeFileSync(out, '', { flag: 'a' });
  }
  const earlier = stored.records.filter((record) => selected.has(record.id));
  const skip = gradedIds(earlier);
  const pending = questions.filter((question) => !skip.has(question.id));
  const progress = flags.quiet
    ? undefined
    : createEvalProgress({ stream: io.stderr, env: io.env, total: questions.length, alreadyDone: skip.size });
  if (skip.size > 0 && !flags.quiet)
    io.stderr.write(
      `deepsearch: resuming: ${skip.size} questions already graded in ${out}, ${pending.length} to go\n`,
    );
  let run: Awaited<ReturnType<typeof runEval>>;
  try {
    run = await runEval({
      runtime,
      questions: pending,
      concurrency: flags.concurrency,
      pricing: context.config.runs.prices,
      signal: io.signal,
      onStart: (question) => progress?.start(question),
      onRecord: (record) => {
        if (out) appendResult(out, record);
        progress?.finish(record);
      },
    });
  } finally {
    progress?.stop();
  }
  const records = latestRecords([...earlier, ...run.records]);
  const interrupted = io.signal.aborted;
  const stopped = run.stoppedBy
    ? interrupted
      ? 'interrupted'
      : runtime.redact((run.stoppedBy as Error).message)
    : undefined;
  writeOutputs(io, { ...context, records, stopped });
  if (!run.stoppedBy) return;
  if (!interrupted) throw run.stoppedBy;
  io.stderr.write(
    out
      ? `deepsearch: interrupted: ${records.length} results are in ${out}; run the same command with --resume to continue\n`
      : 'deepsearch: interrupted (use --out to keep results and --resume to continue)\n',
  );
  throw new ReportedFailure(new AbortedError('evaluation interrupted'));
}

function writeOutputs(
  io: CliIo,
  context: {
    flags: EvalCommandFlags;
    datasetFile: string;
    format: string;
    questions: readonly unknown[];
    runtime: ReturnType<typeof createCliRuntime>;
    out: string | undefined;
    records: EvalRecord[];
    stopped: string | undefined;
  },
): void {
  const { flags, runtime, records } = context;
  const summary = summarizeResults(records, { questions: context.questions.length });
  const models = { agent: runtime.llm.describe('agent').model, judge: runtime.llm.describe('judge').model };
  if (flags.report) {
    const report = renderEvalReport({
      dataset: context.datasetFile,
      format: context.format,
      models,
      summary,
      records,
      stopped: context.stopped,
    });
    writeFileSync(resolve(io.cwd, flags.report), report);
  }
  if (flags.json) {
    const document = {
      dataset: context.datasetFile,
      format: context.format,
      models,
      out: context.out ?? null,
      report: flags.report ? resolve(io.cwd, flags.report) : null,
      stopped: context.stopped ?? null,
      summary,
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    return;
  }
  const terminal = createTerminal(io.stdout, io.env);
  const rows = summaryRows(summary);
  const width = Math.max(...rows.map(([label]) => label.length));
  terminal.write('');
  terminal.write(
    terminal.style(
      'bold',
      `deepsearch eval · ${context.format} · agent ${models.agent} · judge ${models.judge}`,
    ),
  );
  for (const [label, value] of rows)
    terminal.write(`  ${terminal.style('dim', label.padEnd(width))}  ${value}`);
}

/** Results already in --out are only ever added to with --resume, so a run never mixes two by accident. */
function checkOutFile(out: string | undefined, resume: boolean): void {
  if (resume && !out) throw new InputError('--resume needs --out: the results file to continue');
  if (!out || resume || !existsSync(out)) return;
  if (statSync(out).size > 0)
    throw new InputError(
      `${out} already holds results: add --resume to continue it, or choose another --out file`,
    );
}

/** --offline-corpus: the run searches the temporary knowledge base only, never the web. */
function offlineSearchConfig(config: DeepSearchConfig, dir: string): DeepSearchConfig {
  return withSettings(config, {
    search: { provider: localSearchId },
    knowledge: { file: offlineCorpusFile(dir), collection: offlineCollection, merge: false },
  });
}

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InputError } from '../../../core/errors/index.js';
import type { ResearchPlan } from '../../../events/research-result.js';
import { parsePlanMarkdown, renderPlanMarkdown } from '../../../research/plan/plan-markdown.js';
import { kbMergeValues, splitKbMergeFlag } from '../../flags/kb-merge-flag.js';
import { type CliIo, readPipedStdin } from '../../io/cli-io.js';
import { checkReportOutput, deliver, deliverReport } from '../../output/research-report-output.js';
import { withResumeHint } from '../../output/resume-hint.js';
import { startCliProgress } from '../../progress/cli-progress.js';
import { createCliRuntime } from '../../setup/create-cli-runtime.js';
import { prepareLlm, prepareSearch } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';
import type { ResearchCommandFlags } from './research-command.js';

/**
 * `deepsearch research`: live progress by persona on stderr, the report (markdown, HTML or JSON)
 * on stdout or in `-o FILE`. `--outline-only` stops after planning and prints the outline to edit;
 * `--outline FILE` researches an edited one.
 */
export async function runResearchCommand(
  io: CliIo,
  input: { words: string[]; flags: ResearchCommandFlags; settingFlags: Record<string, unknown> },
): Promise<void> {
  const { flags } = input;
  if (flags.outlineOnly && flags.outline)
    throw new InputError(
      '--outline-only and --outline do not go together: plan first, then run the outline',
      {
        param: 'outline',
      },
    );
  // A bad --format or --json combination, or an -o file that cannot be written, fails before any work.
  checkReportOutput(io, flags);
  const { kb, words } = splitKbMergeFlag(flags.kb, input.words, io.cwd);
  const outline = flags.outline ? await readOutline(io, flags.outline, words.join(' ').trim()) : undefined;
  const topic = words.join(' ').trim() || outline?.topic || (await readPipedStdin(io.stdin));
  if (!topic)
    throw new InputError('missing topic: run deepsearch research "your topic" (or --outline FILE)', {
      param: 'topic',
    });
  // --kb: web and local documents together.
  const loaded = loadCliConfig(io, input.settingFlags, flags.config, kbMergeValues(kb, io.cwd));
  const config = await prepareLlm(io, loaded, { quiet: flags.quiet, offerDownload: true, yes: flags.yes });
  prepareSearch(io, config, { quiet: flags.quiet });
  const runtime = createCliRuntime(io, config);
  const progress = startCliProgress(io, { quiet: flags.quiet ?? false, debug: config.debug });
  try {
    if (flags.outlineOnly) {
      const { plan } = await runtime.outline(topic, { signal: io.signal, onEvent: progress.onEvent });
      await deliver(io, flags, renderPlanMarkdown(plan), 'outline');
      return;
    }
    const runId = randomUUID();
    // The progress stops before the report or the resume hint is written.
    const report = await withResumeHint(io, runtime, runId, () =>
      runtime
        .run({
          mode: 'research',
          question: topic,
          runId,
          plan: outline ? { ...outline, topic } : undefined,
          signal: io.signal,
          onEvent: progress.onEvent,
          record: { source: 'cli' },
        })
        .then((outcome) => outcome.result)
        .finally(progress.stop),
    );
    await deliverReport(io, flags, report, config.runs.enabled);
  } finally {
    progress.stop();
    // Its databases (cache, knowledge base, trust profiles, runs) are closed cleanly.
    runtime.close();
  }
}

async function readOutline(io: CliIo, file: string, topic: string): Promise<ResearchPlan> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new InputError(`cannot read the outline ${file}: ${reason}`, { param: 'outline' });
  }
  return parsePlanMarkdown(text, { file, topic: topic || undefined });
}

import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { redactConfig } from '../../../config/redact-config.js';
import { InputError } from '../../../core/errors/index.js';
import { describeRetrievalProviders } from '../../../runtime/create-retrieval-providers.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { kbMergeValues, splitKbMergeFlag } from '../../flags/kb-merge-flag.js';
import { type CliIo, readPipedStdin } from '../../io/cli-io.js';
import { exitCodeFor, formatCliError } from '../../io/exit-codes.js';
import { assertWritableFile } from '../../io/output-file.js';
import { createTerminal } from '../../io/terminal-style.js';
import { answerWithProgress } from '../../output/answer-with-progress.js';
import { withResumeHint } from '../../output/resume-hint.js';
import { createCliRuntime } from '../../setup/create-cli-runtime.js';
import { prepareLlm, prepareSearch } from '../../setup/first-run-setup.js';
import { loadCliConfig } from '../../setup/load-cli-config.js';

export interface AskCommandOptions {
  words: string[];
  flags: Record<string, unknown>;
  json: boolean;
  quiet: boolean;
  configPath: string | undefined;
  /** --kb: true, or the knowledge base file. */
  kb?: string | boolean;
  /** -o: the answer (or the JSON document) goes to this file instead of stdout. */
  output?: string;
  /** --yes: download the default local model without asking when no LLM is set up. */
  yes?: boolean;
}

/**
 * `deepsearch ask`: live progress on stderr, the answer (or one JSON document) on stdout or in the
 * -o file. With --json, a failure is a JSON document too ({"error": ...}), with the same exit code.
 */
export async function runAskCommand(io: CliIo, options: AskCommandOptions): Promise<void> {
  try {
    await ask(io, options);
  } catch (error) {
    if (options.json) io.stdout.write(`${errorJson(error)}\n`);
    throw error;
  }
}

async function ask(io: CliIo, options: AskCommandOptions): Promise<void> {
  if (options.output) assertWritableFile(resolve(io.cwd, options.output), '-o', options.output);
  const { kb, words } = splitKbMergeFlag(options.kb, options.words, io.cwd);
  const question = words.join(' ').trim() || (await readPipedStdin(io.stdin));
  if (!question)
    throw new InputError('missing question: run deepsearch ask "your question"', { param: 'question' });
  const loaded = loadCliConfig(io, options.flags, options.configPath, kbMergeValues(kb, io.cwd));
  const config = await prepareLlm(io, loaded, {
    quiet: options.quiet,
    offerDownload: true,
    yes: options.yes,
  });
  prepareSearch(io, config, { quiet: options.quiet });
  const runtime = createCliRuntime(io, config);
  if (config.debug) printDebugHeader(runtime, createTerminal(io.stderr, io.env).write);
  const runId = randomUUID();
  try {
    await withResumeHint(io, runtime, runId, () =>
      answerWithProgress(
        io,
        {
          json: options.json,
          quiet: options.quiet,
          debug: config.debug,
          output: options.output,
          kept: config.runs.enabled && Boolean(config.runs.file),
        },
        async (onEvent) =>
          (
            await runtime.run({
              mode: 'search',
              question,
              runId,
              signal: io.signal,
              observers: onEvent ? [onEvent] : [],
              record: { source: 'cli' },
            })
          ).result,
      ),
    );
  } finally {
    // Its databases (cache, knowledge base, trust profiles, runs) are closed cleanly.
    runtime.close();
  }
}

/** A failure as --json prints it: the message the error line says, what kind of failure, the exit code. */
function errorJson(error: unknown): string {
  const message = formatCliError(error, false).replace(/^deepsearch: error: /, '');
  const code = (error as { code?: unknown } | undefined)?.code;
  return JSON.stringify(
    { error: { message, code: typeof code === 'string' ? code : null, exitCode: exitCodeFor(error) } },
    null,
    2,
  );
}

function printDebugHeader(runtime: DeepSearchRuntime, write: (line: string) => void): void {
  write(`config: ${JSON.stringify(redactConfig(runtime.config))}`);
  const roles = ['agent', 'evaluator', 'analyzer', 'beast', 'rewriter'] as const;
  for (const role of roles.filter((name) => name !== 'rewriter' || runtime.config.retrieval.queryRewrite)) {
    try {
      const described = runtime.llm.describe(role);
      write(
        `llm ${role}: ${described.provider} ${described.model}${described.baseURL ? ` at ${described.baseURL}` : ''} (${described.structuredOutput})`,
      );
    } catch (error) {
      write(`llm ${role}: ${(error as Error).message}`);
    }
  }
  write(`search: ${runtime.search.id} · reader: ${runtime.reader.id}`);
  for (const line of describeRetrievalProviders(runtime)) write(line);
}

import { extname } from 'node:path';
import type { AgentEventListener } from '../../events/agent-events.js';
import type { DeepSearchResult } from '../../events/deep-search-result.js';
import type { CliIo } from '../io/cli-io.js';
import { createTerminal } from '../io/terminal-style.js';
import { startCliProgress } from '../progress/cli-progress.js';
import { renderResultText, resultJson } from './render-result.js';
import { deliver } from './research-report-output.js';

/**
 * Runs `start` with live progress on stderr (a spinner in a terminal), then prints the answer, or
 * one JSON document (--json, or an `output` file named *.json), on stdout or in the `output` file: `ask` and `resume` alike. stdout starts
 * with the answer itself (`| head -1` is its first line); the blank line that sets it apart from
 * the progress goes to stderr, with the progress.
 */
export async function answerWithProgress(
  io: CliIo,
  options: {
    json: boolean;
    quiet: boolean;
    debug: boolean;
    output?: string;
    /** Whether the run is kept in the run store (default true). */
    kept?: boolean;
  },
  start: (onEvent: AgentEventListener | undefined) => Promise<DeepSearchResult>,
): Promise<void> {
  const progress = startCliProgress(io, options);
  let result: DeepSearchResult;
  try {
    result = await start(progress.onEvent);
  } finally {
    progress.stop();
  }
  // A file gets no colours; a terminal does.
  const styled = createTerminal(options.output ? { write: () => undefined } : io.stdout, io.env);
  // `-o answer.json` is the JSON document, as `research -o report.json` is.
  const json =
    options.json || (options.output !== undefined && extname(options.output).toLowerCase() === '.json');
  const text = json ? resultJson(result) : renderResultText(result, styled, options.kept ?? true);
  if (!options.quiet && !options.json && !options.output) io.stderr.write('\n');
  await deliver(io, options, `${text}\n`, 'answer', result.runId);
}

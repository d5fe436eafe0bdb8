import type { AgentEventListener } from '../../events/agent-events.js';
import type { CliIo } from '../io/cli-io.js';
import { createTerminal } from '../io/terminal-style.js';
import { createProgressRenderer } from './progress-renderer.js';
import { createSpinner, withSpinner } from './spinner.js';

/**
 * Live progress of a run on stderr (none with --quiet): a spinner in a terminal, plain lines in
 * piped, logged or CI output. `stop` clears the spinner before the result is printed.
 */
export function startCliProgress(
  io: CliIo,
  options: { quiet: boolean; debug: boolean },
): { onEvent: AgentEventListener | undefined; stop: () => void } {
  const errors = createTerminal(io.stderr, io.env);
  const renderer = options.quiet ? undefined : createProgressRenderer(errors, { debug: options.debug });
  return io.stderr.isTTY
    ? withSpinner(renderer, createSpinner({ write: (text) => io.stderr.write(text) }))
    : { onEvent: renderer, stop: () => undefined };
}

import type { RunContext } from '../../agent/run-context.js';
import { doneWithout } from '../../agent/steps/step-errors.js';
import { isAuthenticationError } from '../../core/errors/index.js';

/**
 * Runs a controller call whose failure must not end the research (a librarian check or query
 * generation the model got wrong): the failure becomes a warning and the result undefined.
 * Cancellation and a rejected key still end it; running out of time does not (the section stops).
 */
export async function advisoryCall<T>(
  context: RunContext,
  about: { what: string; instead: string },
  call: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (context.cancelSignal?.aborted || isAuthenticationError(error)) throw error;
    context.emit({ type: 'warning', step: context.step, ...doneWithout({ ...about, error }) });
    return undefined;
  }
}

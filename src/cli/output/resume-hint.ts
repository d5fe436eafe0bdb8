import { isAbortError } from '../../core/errors/index.js';
import { isResumable } from '../../runs/resume-target.js';
import type { DeepSearchRuntime } from '../../runtime/create-runtime.js';
import type { CliIo } from '../io/cli-io.js';

/**
 * Runs `task`; when it is interrupted (Ctrl-C, SIGTERM) and the run store can go on with the run,
 * says how on stderr before the error goes up, so the work done is not taken for lost.
 */
export async function withResumeHint<T>(
  io: CliIo,
  runtime: Pick<DeepSearchRuntime, 'runs'>,
  runId: string,
  task: () => Promise<T>,
): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (isAbortError(error) && runtime.runs && isResumable({ store: runtime.runs, runId }))
      io.stderr.write(`deepsearch: deepsearch resume ${runId} goes on from its last checkpoint\n`);
    throw error;
  }
}

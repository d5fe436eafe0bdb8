import { echoInput } from '../../http/echo-input.js';
import { HttpError } from '../../http/http-error.js';

/** How GET shows a run left `running` by a process that is gone: failed, and resumable. */
export function interruptedError(id: string) {
  return {
    message: `the process running it stopped; POST /v1/research/${id}/resume goes on from its last checkpoint`,
    type: 'server_error',
    code: 'run_interrupted',
  };
}

/** A run that does not exist, or is another owner's: the same 404 either way (never a 403). */
export function runNotFound(id: string): HttpError {
  return new HttpError(`no run '${echoInput(id)}'`, {
    status: 404,
    type: 'not_found_error',
    code: 'run_not_found',
  });
}

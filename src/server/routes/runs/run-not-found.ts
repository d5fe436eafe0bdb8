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

/** A resume of a run that another request has just queued: try again once it has ended. */
export function runBusy(id: string): HttpError {
  return new HttpError(`run ${echoInput(id)} is being resumed by another request; wait for it to end`, {
    status: 409,
    type: 'invalid_request_error',
    code: 'run_busy',
  });
}

/**
 * What a run id can be: ours are `run_<uuid>` (the API) or a uuid (the CLI). Anything else (a NUL
 * byte, a path, a megabyte) is a 404 before any store is asked.
 */
export function isRunIdShape(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/.test(id);
}

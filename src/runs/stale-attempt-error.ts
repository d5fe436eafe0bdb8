import { DeepSearchError, hasErrorMarker, markError } from '../core/errors/index.js';

/**
 * A write by an attempt that no longer holds the run: another worker claimed it since (the lock
 * of this one expired, or it was handed back), or the run was deleted. The worker stops there;
 * what it would have written is the new attempt's to write.
 */
export class StaleAttemptError extends DeepSearchError {
  readonly runId: string;
  readonly attempt: number;
  /** The attempt holding the run now; undefined when the run is gone. */
  readonly current: number | undefined;

  constructor(input: { runId: string; attempt: number; current: number | undefined }) {
    super(
      input.current === undefined
        ? `run ${input.runId} is gone: attempt ${input.attempt} stops`
        : `run ${input.runId} was claimed by attempt ${input.current}: attempt ${input.attempt} stops without writing`,
      { code: 'stale_attempt' },
    );
    markError(this, 'StaleAttemptError');
    this.runId = input.runId;
    this.attempt = input.attempt;
    this.current = input.current;
  }

  static override isInstance(value: unknown): value is StaleAttemptError {
    return hasErrorMarker(value, 'StaleAttemptError');
  }
}

export function isStaleAttemptError(error: unknown): error is StaleAttemptError {
  return StaleAttemptError.isInstance(error);
}

/** A claim refused: the run does not exist, or it already ended (it is not queued or running). */
export class RunClaimError extends DeepSearchError {
  readonly runId: string;

  constructor(input: { runId: string; code: 'run_not_found' | 'run_finished'; status?: string }) {
    super(
      input.code === 'run_not_found'
        ? `no run ${input.runId} to claim`
        : `run ${input.runId} is ${input.status}: only a queued or running run is claimed`,
      { code: input.code },
    );
    markError(this, 'RunClaimError');
    this.runId = input.runId;
  }

  static override isInstance(value: unknown): value is RunClaimError {
    return hasErrorMarker(value, 'RunClaimError');
  }
}

/** Who claims a run: the worker's id (host, process, instance) and, on this host, its process. */
export interface RunClaimer {
  workerId: string;
  pid?: number;
}

import { BusyError, DeepSearchError, hasErrorMarker, markError } from '../core/errors/index.js';
import type { RunRecord } from '../runs/run-record.js';

/** What a job carries besides its id and owner: JSON, as a queue in Redis stores it. */
export type JobData = Record<string, unknown>;

export interface JobRequest {
  /** The run's id: one job per run, so a run is never queued twice. */
  id: string;
  /** Who it is for (`local`, or `key:<sha256>`): the per-owner limit counts by it. */
  owner: string;
  data: JobData;
}

/** A job as its handler gets it. */
export interface RunningJob extends JobRequest {
  /**
   * Aborts when the job must stop; its reason is a JobStoppedError saying why: cancelled (end the
   * run as cancelled), handed back (the process is shutting down: leave the run as it is, another
   * worker goes on with it), or lease lost (another worker holds it now: write nothing more).
   */
  signal: AbortSignal;
  /** This process's worker id, to claim the run with. */
  workerId: string;
}

export type JobHandler = (job: RunningJob) => Promise<void>;

export interface JobQueue {
  /**
   * Admits a job: `running` when a slot took it at once, else `queued`. Refused with a
   * JobQueueBusyError (`owner_busy`: this owner has its limit of jobs queued or running;
   * `server_busy`: the queue is full), or a DeepSearchError `job_exists` for an id already there.
   */
  enqueue(request: JobRequest): Promise<{ status: 'queued' | 'running' }>;
  /**
   * `removed`: it was waiting and never runs (the caller records the run cancelled); `signalled`:
   * it runs, and its handler's signal aborts (cancelled) within a second, wherever it runs;
   * `not_found`: no such job (finished, or never queued).
   */
  cancel(id: string): Promise<'removed' | 'signalled' | 'not_found'>;
  /** Whether the job is queued or running (a run whose job is gone was interrupted). */
  has(id: string): Promise<boolean>;
  /** Runs jobs in this process with `handler`, `concurrency` at once, until close. */
  work(options: { handler: JobHandler; concurrency: number }): Promise<void>;
  counts(): Promise<{ queued: number; running: number }>;
  /**
   * Stops taking jobs; the running ones get `graceMs` to end, then their signals abort (handed
   * back) and they go back to the queue for another worker (never cancelled). Resolves with the
   * ids of the jobs this process gave back unfinished.
   */
  close(options?: { graceMs?: number }): Promise<{ handedBack: string[] }>;
}

export type JobStopReason = 'job_cancelled' | 'job_handed_back' | 'job_lease_lost';

/** Why a job's signal aborted (its `reason`). */
export class JobStoppedError extends DeepSearchError {
  declare readonly code: JobStopReason;

  constructor(code: JobStopReason) {
    super(
      code === 'job_cancelled'
        ? 'the run was cancelled'
        : code === 'job_handed_back'
          ? 'this worker is shutting down: the run goes back to the queue'
          : "this worker's lease on the run expired: another worker has it now",
      { code },
    );
    markError(this, 'JobStoppedError');
  }

  static override isInstance(value: unknown): value is JobStoppedError {
    return hasErrorMarker(value, 'JobStoppedError');
  }
}

/** The reason a job's signal aborted with, when it is one of the queue's. */
export function jobStopReason(signal: AbortSignal): JobStopReason | undefined {
  return signal.aborted && JobStoppedError.isInstance(signal.reason) ? signal.reason.code : undefined;
}

/** A job refused at the door (HTTP 429, with Retry-After). */
export class JobQueueBusyError extends BusyError {}

export function jobExists(id: string): DeepSearchError {
  return new DeepSearchError(`run ${id} is already queued or running`, { code: 'job_exists' });
}

/** The queue's limits (config `scale.*`). */
export interface JobQueueLimits {
  /** Jobs waiting for a worker; one more is refused with server_busy. */
  maxQueue: number;
  /** Jobs of one owner queued or running at once; one more is refused with owner_busy (unset: none). */
  maxJobsPerOwner?: number;
}

/** Seconds to wait before trying again: the average time a job held a slot lately, at least 1. */
export function retryAfterSeconds(recentMs: readonly number[]): number {
  if (recentMs.length === 0) return 1;
  const average = recentMs.reduce((sum, ms) => sum + ms, 0) / recentMs.length;
  return Math.max(1, Math.ceil(average / 1000));
}

export function busyMessage(
  code: 'server_busy' | 'owner_busy',
  detail: { queued: number; limit: number },
): string {
  return code === 'owner_busy'
    ? `this API key already has ${detail.limit} runs waiting or running, as many as one key may; wait for one to finish`
    : `the server is busy (${detail.queued} runs waiting, at most ${detail.limit}); retry later`;
}

/**
 * Whether a run reading as queued or running has no job any more: its worker died and it was not
 * taken over (3 takeovers failed, or Redis lost it). Nobody holds it: it is interrupted, resumable.
 */
export async function isInterrupted(
  queue: Pick<JobQueue, 'has'>,
  run: Pick<RunRecord, 'id' | 'status'>,
): Promise<boolean> {
  return (run.status === 'running' || run.status === 'queued') && !(await queue.has(run.id));
}

import { InputError, isAbortError } from '../core/errors/index.js';
import type { AgentEvent } from '../events/agent-events.js';
import { redactedEvent } from '../runs/event-json.js';
import { isOrphaned } from '../runs/resume-target.js';
import type { RunError } from '../runs/run-record.js';
import type { RunStore } from '../runs/run-store.js';
import { RunClaimError } from '../runs/stale-attempt-error.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import { toAsyncRunStore } from './async-run-store.js';
import { guardRunStore } from './backing-services.js';
import { createInProcessJobQueue, type JobSlots } from './in-process-job-queue.js';
import type { JobHandler } from './job-queue.js';
import type { RunBackend } from './run-backend.js';
import { createMemoryRunEventLog, type RunEventLog } from './run-event-log.js';
import { type RunJobData, runStoredRun } from './run-job-handler.js';

/** What resume refuses with when another process took the run first: its end is theirs to record. */
const resumeRefusals = new Set(['run_running', 'run_complete', 'run_not_resumable', 'run_not_found']);

export interface LocalRunBackendOptions {
  /** The server's runtime: its run store (SQLite) records the runs, as it records chat completions. */
  runtime: DeepSearchRuntime;
  runs: RunStore;
  /** The server's slots: async runs wait for them (or get its 429) as chat completions do. */
  slots: JobSlots;
  /** Aborts every run still going, and the ones still waiting, which end cancelled. */
  shutdownSignal: AbortSignal;
  /** A failed run's error as stored: what the API answers for it, never a provider's internal detail. */
  failure: (error: unknown) => RunError;
}

/**
 * The async run API's backend on one machine (`deepsearch serve` without queue mode): the SQLite
 * run store, the in-process job queue in the server's slots, the memory event log. A job runs in
 * this process with the server's runtime, which records it; its events go live to followers as
 * they happen. A run reading as queued or running is held by nobody when this process has no job
 * for it and the process that recorded it is gone (a restart, a killed CLI).
 */
export function createLocalRunBackend(options: LocalRunBackendOptions): RunBackend {
  const { runs, shutdownSignal } = options;
  const file = options.runtime.config.runs.file;
  const store = file ? guardRunStore(toAsyncRunStore(runs), file) : toAsyncRunStore(runs);
  const log = createMemoryRunEventLog({ store });
  const queue = createInProcessJobQueue({ maxQueue: 0, slots: options.slots });
  void queue.work({ handler: createLocalRunJobHandler({ ...options, log }), concurrency: 1 });
  shutdownSignal.addEventListener(
    'abort',
    async () => {
      const { handedBack } = await queue.close();
      // A job still waiting for a slot never ran: it ends cancelled, as a running one does.
      for (const id of handedBack) {
        if (runs.get(id)?.status === 'queued') runs.finish(id, { status: 'cancelled' });
        await log.end(id);
      }
    },
    { once: true },
  );
  return {
    store,
    queue,
    log,
    isInterrupted: async (run) => !(await queue.has(run.id)) && isOrphaned(run),
    outlivesProcess: false,
  };
}

/**
 * Runs a job with the server's runtime: a new run is claimed (running, in this process) and run
 * from the start, a resumed one goes on from its checkpoint. Each event is published (redacted)
 * as it happens; the store gets it from the runtime's recorder. A failure before the recording
 * began (or one the recorder could not store) is recorded here.
 */
function createLocalRunJobHandler(options: LocalRunBackendOptions & { log: RunEventLog }): JobHandler {
  const { runtime, runs, log } = options;
  return async (job) => {
    const record = runs.get(job.id);
    if (!record) return;
    const resumes = record.checkpointStep !== null;
    try {
      if (!resumes) runs.claim(job.id, { workerId: job.workerId, pid: process.pid });
    } catch (error) {
      if (RunClaimError.isInstance(error)) return; // ended (cancelled while queued) or deleted
      throw error;
    }
    const signal = AbortSignal.any([job.signal, options.shutdownSignal]);
    const observe = (event: AgentEvent) => void log.publish(job.id, [redactedEvent(event, runtime.redact)]);
    try {
      await runStoredRun(runtime, record, job.data as RunJobData, { signal, resumes, observers: [observe] });
    } catch (error) {
      // Another process took the run (or ended it) between the route's check and this job.
      if (InputError.isInstance(error) && resumeRefusals.has(error.code)) return;
      const cancelled = isAbortError(error) || signal.aborted;
      runs.finish(
        job.id,
        cancelled ? { status: 'cancelled' } : { status: 'failed', error: options.failure(error) },
      );
    } finally {
      await log.end(job.id);
    }
  };
}

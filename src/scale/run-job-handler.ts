import type { ConfigOverrides } from '../config/derive-config.js';
import { isAbortError } from '../core/errors/index.js';
import type { AgentEventListener } from '../events/agent-events.js';
import type { ResearchPlan } from '../events/research-result.js';
import { resumedConfig } from '../runs/resume-target.js';
import type { RunRecord } from '../runs/run-record.js';
import { runError } from '../runs/run-recording.js';
import { RunClaimError } from '../runs/stale-attempt-error.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import { type TraceCarrier, withTraceContext } from '../telemetry/trace-context.js';
import type { AsyncRunStore } from './async-run-store.js';
import { type JobEventListener, resultTokens } from './job-events.js';
import { type JobHandler, jobStopReason } from './job-queue.js';
import type { WorkerRunStore } from './worker-run-store.js';

/**
 * What a job carries besides the stored run: a chat's earlier turns, a resume's raised budget, the
 * edited outline a research run follows.
 */
export interface RunJobData {
  history?: Array<{ question: string; answer: string }>;
  overrides?: ConfigOverrides;
  plan?: ResearchPlan;
  /** The W3C trace context of the request that queued the run, when it was traced. */
  trace?: TraceCarrier;
}

/**
 * What a worker does with a job: claims its run in the shared store (a new attempt, fencing any
 * earlier one), then runs it with the runtime, recorded through the worker's run store. A run
 * with a checkpoint (a takeover after a crash, a hand-back at shutdown) goes on from it: no
 * planning again, no finished step or section again, event ids continuing. A run cancelled or
 * deleted before it started is not claimed and not run.
 */
export function createRunJobHandler(options: {
  runtime: DeepSearchRuntime;
  store: AsyncRunStore;
  runs: WorkerRunStore;
  /** Each job taken, resumed and ended, for the worker's log and metrics. */
  onJobEvent?: JobEventListener;
}): JobHandler {
  const { runtime, store, runs } = options;
  const emit: JobEventListener = (event) => options.onJobEvent?.(event);
  return async (job) => {
    let attempt: number;
    try {
      attempt = await store.claim(job.id, { workerId: job.workerId, pid: process.pid });
    } catch (error) {
      if (RunClaimError.isInstance(error)) return; // ended (cancelled while queued) or deleted
      throw error;
    }
    const record = await store.get(job.id);
    if (!record) return;
    // A run with a checkpoint (a takeover, a hand-back, a resume) goes on from it; most runs are
    // new and have none to read. The claim fenced every earlier attempt: nothing writes one meanwhile.
    const restore = record.checkpointStep === null ? undefined : await store.restore(job.id);
    const writeFailed = new AbortController();
    const keepsRunning = () => {
      const reason = jobStopReason(job.signal);
      return reason === 'job_handed_back' || reason === 'job_lease_lost';
    };
    runs.hold(job.id, {
      attempt,
      record: { ...record, pid: null },
      restore,
      keepsRunning,
      onWriteFailure: (error) => writeFailed.abort(error),
    });
    const signal = AbortSignal.any([job.signal, writeFailed.signal]);
    const about = { runId: job.id, mode: record.mode, attempt };
    // A run with a checkpoint, or claimed before, goes on from where another attempt left it.
    emit({ event: restore !== undefined || attempt > 1 ? 'job-resumed' : 'job-taken', ...about });
    const started = performance.now();
    const took = () => Math.round(performance.now() - started);
    try {
      const result = await runStoredRun(runtime, record, job.data as RunJobData, {
        signal,
        resumes: restore !== undefined,
      });
      emit({ event: 'job-finished', ...about, durationMs: took(), ...resultTokens(result) });
    } catch (error) {
      // The runtime records a run's end (failed, cancelled), unless it failed before its recording
      // began (a question too long for the model): that end is recorded here. A hand-back records none.
      const reason = jobStopReason(job.signal);
      // A store write that failed aborts the run too: that is a failure, not a cancel.
      const cancelled = isAbortError(error) && !writeFailed.signal.aborted;
      if (!runs.ended(job.id) && !keepsRunning())
        runs.finish(job.id, {
          status: isAbortError(error) ? 'cancelled' : 'failed',
          error: runError(error, runtime.redact),
        });
      if (keepsRunning())
        emit({
          event: reason === 'job_handed_back' ? 'job-handed-back' : 'job-lost',
          ...about,
          durationMs: took(),
        });
      else if (cancelled) emit({ event: 'job-cancelled', ...about, durationMs: took() });
      else {
        const code = (writeFailed.signal.reason ?? error) as { code?: unknown };
        const errorCode = typeof code.code === 'string' ? code.code : 'internal_error';
        emit({ event: 'job-failed', ...about, durationMs: took(), errorCode });
      }
    } finally {
      await runs.release(job.id);
    }
  };
}

/**
 * A stored run as its job runs it: from its checkpoint when it has one (`resumes`), else from the
 * start with the settings stored when it was posted; the same on a worker and on one machine.
 */
export function runStoredRun(
  runtime: DeepSearchRuntime,
  record: RunRecord,
  data: RunJobData,
  input: { signal: AbortSignal; resumes: boolean; observers?: AgentEventListener[] },
): Promise<unknown> {
  // Traced inside the trace of the request that queued it (a no-op when nothing is traced).
  return withTraceContext(data.trace, () => startStoredRun(runtime, record, data, input));
}

function startStoredRun(
  runtime: DeepSearchRuntime,
  record: RunRecord,
  data: RunJobData,
  input: { signal: AbortSignal; resumes: boolean; observers?: AgentEventListener[] },
): Promise<unknown> {
  const { signal, observers } = input;
  const recordAs = { owner: record.owner, source: record.source, mode: record.mode, options: record.options };
  const { history, overrides, plan } = data;
  if (input.resumes)
    return runtime.run({ resume: record.id, signal, observers, record: recordAs, overrides });
  const options = {
    runId: record.id,
    signal,
    observers,
    // The settings stored with the run when it was posted (budget, agent, search, research).
    config: resumedConfig(runtime.config, record),
    record: recordAs,
  };
  if (record.mode === 'research')
    return runtime.run({ ...options, mode: 'research', question: record.question, plan });
  return runtime.run({
    ...options,
    mode: 'search',
    question: record.question,
    history: Array.isArray(history) ? history : undefined,
  });
}

import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentEventListener } from '../agent/agent-events.js';
import type { DeepSearchResult } from '../agent/agent-types.js';
import type { DeepSearchConfig } from '../config/config-schema.js';
import { AbortedError, DeepSearchError, InputError, ProviderError } from '../errors/index.js';
import type { ResearchReport } from '../research/research-types.js';
import type { RunError } from '../runs/run-record.js';
import { type RecordOptions, runSettings } from '../runs/run-recording.js';
import type { AskOptions, DeepSearchRuntime } from '../runtime.js';
import { HttpError } from '../server/http-error.js';
import { JobQueueBusyError } from './job-queue.js';
import type { QueueMode } from './open-queue-mode.js';
import type { RunJobData } from './run-job-handler.js';

/**
 * The runtime of an API node in queue mode: a deep search or a research run asked of it (a chat
 * completion, a response, an MCP tool call) is posted to the queue and run by a worker; its
 * events come back through the event log to the caller's observers as they would from a run in
 * this process, and its result from the run store. Cancelling the caller's signal cancels the run
 * wherever it runs. Everything else (one plain LLM call, the structured answer, search and read)
 * stays the node's own.
 */
export function createQueuedRuntime(runtime: DeepSearchRuntime, shared: QueueMode): DeepSearchRuntime {
  return {
    ...runtime,
    runs: undefined,
    ask: (question, options = {}) =>
      runQueued<DeepSearchResult>(shared, runtime.config, {
        question,
        mode: 'search',
        options,
        data: options.history ? { history: [...options.history] } : {},
      }),
    research: (topic, options = {}) =>
      runQueued<ResearchReport>(shared, runtime.config, {
        question: topic,
        mode: 'research',
        options,
        data: {},
      }),
    resume: unsupported,
    resumeResearch: unsupported,
  };
}

function unsupported(): never {
  throw new InputError('in queue mode a run is resumed with POST /v1/research/{id}/resume', {
    code: 'run_not_resumable',
  });
}

/** Posts the run, relays its events, and settles as a run in this process would. */
async function runQueued<Result>(
  shared: QueueMode,
  defaults: DeepSearchConfig,
  input: { question: string; mode: 'search' | 'research'; options: AskOptions; data: RunJobData },
): Promise<Result> {
  const { options } = input;
  const id = options.runId ?? `run_${randomUUID()}`;
  const record: RecordOptions = options.record || {};
  const owner = record.owner ?? 'local';
  await postRun(shared, {
    id,
    owner,
    question: input.question,
    mode: input.mode,
    record,
    config: options.config ?? defaults,
    data: input.data,
  });
  const listeners = [options.onEvent, ...(options.observers ?? [])].filter(
    (listener): listener is AgentEventListener => listener !== undefined,
  );
  const cancel = () =>
    void shared.queue.cancel(id).then(async (outcome) => {
      if (outcome === 'removed') await shared.store.finish(id, { status: 'cancelled' }, 0);
      if (outcome !== 'signalled') await shared.log.end(id);
    });
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    if (options.signal?.aborted) cancel();
    for await (const event of shared.log.follow(id, 0)) relay(listeners, event);
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
  return settled<Result>(shared, id);
}

/** Stores the run as queued, then enqueues its job; a refused job leaves no run behind. */
export async function postRun(
  shared: QueueMode,
  run: {
    id: string;
    owner: string;
    question: string;
    mode: string;
    record: RecordOptions;
    config: DeepSearchConfig;
    data: RunJobData;
  },
): Promise<{ status: 'queued' | 'running' }> {
  const settings = runSettings(run.config, run.mode);
  await shared.store.begin(
    {
      id: run.id,
      owner: run.owner,
      source: run.record.source ?? 'library',
      mode: run.mode,
      question: run.question,
      options: run.record.options ?? (settings as Record<string, unknown>),
      settings,
    },
    'queued',
  );
  try {
    return await enqueueRun(shared, { id: run.id, owner: run.owner, data: run.data });
  } catch (error) {
    await shared.store.delete(run.id).catch(() => undefined);
    throw error;
  }
}

/** Enqueues a stored run's job; a full queue, or an owner at its limit, is a 429 with Retry-After. */
export async function enqueueRun(
  shared: QueueMode,
  job: { id: string; owner: string; data: RunJobData },
): Promise<{ status: 'queued' | 'running' }> {
  try {
    return await shared.queue.enqueue({ id: job.id, owner: job.owner, data: { ...job.data } });
  } catch (error) {
    throw error instanceof JobQueueBusyError ? busy(error) : error;
  }
}

/** A full queue (or an owner at its limit) is a 429 with Retry-After, as the in-process server answers. */
function busy(error: JobQueueBusyError): HttpError {
  return new HttpError(error.message, {
    status: 429,
    type: 'rate_limit_error',
    code: error.code,
    headers: { 'retry-after': String(error.retryAfterSeconds) },
  });
}

/** An observer that throws is the caller's problem, never the run's (as in-process observers). */
function relay(listeners: readonly AgentEventListener[], event: AgentEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch {
      // detached in spirit: the run goes on for the others
    }
  }
}

async function settled<Result>(shared: QueueMode, id: string): Promise<Result> {
  const record = await shared.store.get(id);
  if (record?.status === 'completed' && record.result) return record.result as Result;
  if (!record || record.status === 'cancelled') throw new AbortedError();
  throw storedError(record.error);
}

/** The stored error as the kind of error the API answers it with (400, 502, 500). */
export function storedError(error: RunError | null): DeepSearchError {
  const message = error?.message ?? 'the run failed';
  const code = error?.code ?? 'run_failed';
  if (error?.type === 'invalid_request_error') return new InputError(message, { code });
  if (error?.type === 'upstream_error') return new ProviderError(message, { code, providerId: 'worker' });
  return new DeepSearchError(message, { code });
}

import { randomUUID } from 'node:crypto';
import type { DeepSearchConfig } from '../config/config-schema.js';
import {
  AbortedError,
  asErrorCode,
  DeepSearchError,
  InputError,
  ProviderError,
} from '../core/errors/index.js';
import type { AgentEvent, AgentEventListener } from '../events/agent-events.js';
import type { DeepSearchResult } from '../events/deep-search-result.js';
import type { ResearchReport } from '../events/research-result.js';
import type { RunError, RunRecord } from '../runs/run-record.js';
import type { RecordOptions } from '../runs/run-recording.js';
import type { AskOptions, DeepSearchRuntime, RunOutcome, RunRequest } from '../runtime/create-runtime.js';
import type { QueueMode } from './open-queue-mode.js';
import { postRun, requeueRun } from './run-backend.js';
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
  const run = async (request: RunRequest): Promise<RunOutcome> => {
    if ('resume' in request) return resumeQueued(shared, request);
    if (request.mode === 'research') {
      const { question, ...options } = request;
      const result = await runQueued<ResearchReport>(shared, runtime.config, {
        question,
        mode: 'research',
        options,
        data: {},
      });
      return { mode: 'research', result };
    }
    const { question, ...options } = request;
    const result = await runQueued<DeepSearchResult>(shared, runtime.config, {
      question,
      mode: 'search',
      options,
      data: options.history ? { history: [...options.history] } : {},
    });
    return { mode: 'search', result };
  };
  return {
    ...runtime,
    runs: undefined,
    run: run as DeepSearchRuntime['run'],
  };
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
  return followQueued<Result>(shared, { id, afterSeq: 0, storedUpTo: 0, attempt: 0, options });
}

/**
 * A stored run put back on the queue from its last checkpoint (a worker goes on with it), its
 * events from there relayed: `deepsearch resume` and the library's `run({ resume })` in queue mode.
 */
async function resumeQueued(
  shared: QueueMode,
  request: Extract<RunRequest, { resume: string }>,
): Promise<RunOutcome> {
  const stored = await shared.store.get(request.resume);
  const { record } = await requeueRun(shared, stored, {
    runId: request.resume,
    owner: request.owner,
    overrides: request.overrides,
  });
  const result = await followQueued<DeepSearchResult & ResearchReport>(shared, {
    id: record.id,
    afterSeq: record.lastSeq,
    storedUpTo: record.lastSeq,
    attempt: record.attempt,
    options: request,
  });
  return { mode: record.mode === 'research' ? 'research' : 'search', result };
}

/** Relays a queued run's events after `afterSeq` until it ends; cancelling the caller's signal cancels it. */
async function followQueued<Result>(
  shared: QueueMode,
  input: {
    id: string;
    afterSeq: number;
    /** The run's last stored seq when it was posted or read (its follower skips the store up to it). */
    storedUpTo: number;
    attempt: number;
    options: Pick<AskOptions, 'onEvent' | 'observers' | 'signal'>;
  },
): Promise<Result> {
  const { id, options } = input;
  const listeners = [options.onEvent, ...(options.observers ?? [])].filter(
    (listener): listener is AgentEventListener => listener !== undefined,
  );
  const cancel = () =>
    void shared.queue.cancel(id).then(async (outcome) => {
      if (outcome === 'removed') await shared.store.finish(id, { status: 'cancelled' }, input.attempt);
      if (outcome !== 'signalled') await shared.log.end(id);
    });
  options.signal?.addEventListener('abort', cancel, { once: true });
  let ended: { record: RunRecord | undefined } | undefined;
  try {
    if (options.signal?.aborted) cancel();
    const following = shared.log.follow(id, input.afterSeq, {
      storedUpTo: input.storedUpTo,
      onEnd: (record) => {
        ended = { record };
      },
    });
    for await (const event of following) relay(listeners, event);
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
  // The record the follower ended on has the run's outcome: no second read.
  return settled<Result>(ended ? ended.record : await shared.store.get(id));
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

function settled<Result>(record: RunRecord | undefined): Result {
  if (record?.status === 'completed' && record.result) return record.result as Result;
  if (!record || record.status === 'cancelled') throw new AbortedError();
  throw storedError(record.error);
}

/** The stored error as the kind of error the API answers it with (400, 502, 500). */
export function storedError(error: RunError | null): DeepSearchError {
  const message = error?.message ?? 'the run failed';
  const code = asErrorCode(error?.code ?? 'run_failed');
  if (error?.type === 'invalid_request_error') return new InputError(message, { code });
  if (error?.type === 'upstream_error') return new ProviderError(message, { code, providerId: 'worker' });
  return new DeepSearchError(message, { code });
}

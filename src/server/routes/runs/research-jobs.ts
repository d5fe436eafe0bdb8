import { randomUUID } from 'node:crypto';
import type { DeepSearchConfig } from '../../../config/config-schema.js';
import type { ConfigOverrides } from '../../../config/derive-config.js';
import { InputError, isAbortError } from '../../../core/errors/index.js';
import { anySignal } from '../../../core/link-signals.js';
import type { AgentEvent } from '../../../events/agent-events.js';
import type { ResearchPlan } from '../../../events/research-types.js';
import type { RunStatus } from '../../../runs/run-record.js';
import { runSettings } from '../../../runs/run-recording.js';
import type { RunStore } from '../../../runs/run-store.js';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import type { ConcurrencyLimiter } from '../../concurrency/concurrency-limiter.js';
import { toErrorResponse } from '../../http/openai-error.js';

/** What `resumeTarget` refuses with: the run is someone else's to record. */
const resumeRefusals = new Set(['run_running', 'run_complete', 'run_not_resumable', 'run_not_found']);

/** A job running (or waiting for a slot) in this server. */
export interface ResearchJob {
  readonly id: string;
  /** Events of this run with a larger seq, from the store and from this process, in order. */
  eventsAfter(seq: number): AgentEvent[];
  /** Live events from now on; returns the function that stops them. */
  subscribe(listener: (event: AgentEvent) => void): () => void;
  cancel(): void;
  /** Settles with the final status once the job is over and its end is stored. */
  readonly done: Promise<RunStatus>;
}

export interface ResearchJobs {
  /** Starts a job: 429 at once when the queue is full; otherwise queued or running. */
  start(input: {
    question: string;
    mode: 'search' | 'research';
    owner: string;
    options: Record<string, unknown>;
    config: DeepSearchConfig;
    /** An edited outline research follows instead of planning. */
    plan?: ResearchPlan;
  }): Promise<{ id: string; status: 'queued' | 'running' }>;
  /** Goes on with a stored run (a deep search or a research task) as a job (same id). */
  resume(input: {
    id: string;
    owner: string;
    overrides: ConfigOverrides;
  }): Promise<{ status: 'queued' | 'running' }>;
  get(id: string): ResearchJob | undefined;
}

/**
 * Research jobs: runs that belong to the server, not to a connection. Each takes a slot of the
 * same limiter as chat completions (waiting in its queue), is recorded in the run store, and
 * keeps the events of this process in memory while it runs so an SSE client joining mid-run
 * gets stored and live events without a gap.
 */
export function createResearchJobs(options: {
  runtime: DeepSearchRuntime;
  store: RunStore;
  limiter: ConcurrencyLimiter;
  shutdownSignal: AbortSignal;
}): ResearchJobs {
  const { runtime, store, limiter } = options;
  const jobs = new Map<string, ResearchJob>();

  const launch = async (
    id: string,
    owner: string,
    begin: (status: 'queued' | 'running') => void,
    run: (signal: AbortSignal, observe: (event: AgentEvent) => void) => Promise<unknown>,
  ) => {
    const controller = new AbortController();
    const signal = anySignal(controller.signal, options.shutdownSignal);
    const slot = limiter.acquire({ owner, signal });
    const status = await grantedAtOnce(slot);
    try {
      begin(status);
    } catch (error) {
      // Nothing was recorded: give the slot back (or leave the queue) before answering the error.
      controller.abort(error);
      slot.then(
        (release) => release(),
        () => {},
      );
      throw error;
    }
    const firstSeq = (store.get(id)?.lastSeq ?? 0) + 1;
    const buffer: AgentEvent[] = [];
    const listeners = new Set<(event: AgentEvent) => void>();
    const observe = (event: AgentEvent) => {
      const safe = JSON.parse(runtime.redact(JSON.stringify(event))) as AgentEvent;
      buffer.push(safe);
      for (const listener of listeners) listener(safe);
    };
    const done = (async (): Promise<RunStatus> => {
      let release: (() => void) | undefined;
      try {
        release = await slot;
        await run(signal, observe);
        return 'completed';
      } catch (error) {
        // Another process took the run (or ended it) between the route's check and this job: the
        // stored run is theirs, so its status is left alone.
        if (InputError.isInstance(error) && resumeRefusals.has(error.code)) return 'failed';
        const cancelled = isAbortError(error) || signal.aborted;
        // The client sees what the API would answer, never a provider's internal detail.
        const { body } = toErrorResponse(error);
        const failure = cancelled
          ? {}
          : { error: { ...body.error, message: runtime.redact(body.error.message) } };
        store.finish(id, { status: cancelled ? 'cancelled' : 'failed', ...failure });
        return cancelled ? 'cancelled' : 'failed';
      } finally {
        release?.();
        jobs.delete(id);
      }
    })();
    jobs.set(id, {
      id,
      eventsAfter: (seq) => [
        ...store.events(id, seq).filter((event) => event.seq < firstSeq),
        ...buffer.filter((event) => event.seq > seq),
      ],
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      cancel: () => controller.abort(new Error('cancelled by the client')),
      done,
    });
    return status;
  };

  return {
    async start(input) {
      const id = `run_${randomUUID()}`;
      const record = {
        owner: input.owner,
        source: 'research' as const,
        mode: input.mode,
        options: input.options,
      };
      const status = await launch(
        id,
        input.owner,
        (initial) =>
          store.begin(
            { id, ...record, question: input.question, settings: runSettings(input.config, input.mode) },
            initial,
            process.pid,
          ),
        (signal, observe) =>
          runtime.run({
            mode: input.mode,
            question: input.question,
            runId: id,
            plan: input.plan,
            signal,
            config: input.config,
            observers: [observe],
            record,
          }),
      );
      return { id, status };
    },
    async resume(input) {
      const stored = store.get(input.id);
      const status = await launch(
        input.id,
        input.owner,
        () => undefined,
        // A research run goes on from its last phase and ends with its report: run() picks the
        // path from the stored run's mode.
        (signal, observe) =>
          runtime.run({
            resume: input.id,
            owner: input.owner,
            overrides: input.overrides,
            signal,
            observers: [observe],
            record: {
              owner: input.owner,
              source: stored?.source,
              mode: stored?.mode,
              options: stored?.options,
            },
          }),
      );
      return { status };
    },
    get: (id) => jobs.get(id),
  };
}

/**
 * Whether the limiter granted a slot at once or queued the job; a full queue rejects here (429).
 * An already settled promise wins a race against a later-settled one, so this tells them apart
 * without waiting.
 */
async function grantedAtOnce(slot: Promise<() => void>): Promise<'queued' | 'running'> {
  const waiting = Symbol('waiting');
  const first = await Promise.race([slot, Promise.resolve(waiting)]);
  return first === waiting ? 'queued' : 'running';
}

import { InputError } from '../core/errors/index.js';
import { linkSignals } from '../core/link-signals.js';
import type { AgentEvent, AgentEventListener } from './agent-events.js';

/** A run started by the library API: its events as they happen, and its result. */
export interface RunHandle<Result> {
  /**
   * Every event of the run, in order, from its start (events are kept until read). The iteration
   * ends after the run's last event, or throws the run's error. Read it once.
   */
  readonly events: AsyncIterableIterator<AgentEvent>;
  /** The run's result; rejects with the run's error (an AbortedError when cancelled). */
  readonly result: Promise<Result>;
  /** Cancels the run (like aborting the signal passed in): it stops within a second. */
  cancel(reason?: unknown): void;
}

export interface RunHandleOptions {
  signal?: AbortSignal;
  /**
   * Keep events for `run.events` (default true). Callers that only pass observers turn it off, so a
   * long run keeps nothing in memory; `run.events` then throws.
   */
  bufferEvents?: boolean;
}

/**
 * Starts `start` with an observer that feeds `events` and a signal joining the caller's with
 * `cancel()`. The same shape serves every long task of the library (deep search, research).
 */
export function createRunHandle<Result>(
  options: RunHandleOptions,
  start: (run: { observer: AgentEventListener; signal: AbortSignal }) => Promise<Result>,
): RunHandle<Result> {
  const link = linkSignals([options.signal]);
  const { signal } = link;
  const queue = options.bufferEvents === false ? undefined : createEventQueue();
  const result = Promise.resolve()
    .then(() => start({ observer: (event) => queue?.push(event), signal }))
    .then(
      (value) => {
        queue?.end();
        return value;
      },
      (error: unknown) => {
        queue?.fail(error);
        throw error;
      },
    )
    .finally(link.unlink);
  // A caller that only iterates the events gets the error there; the result's rejection must not
  // also crash the process as unhandled. `await run.result` still rejects.
  result.catch(() => undefined);
  return {
    get events() {
      if (!queue)
        throw new InputError('this run was started with bufferEvents: false; pass observers instead');
      return queue.iterator;
    },
    result,
    cancel: (reason) => link.abort(reason ?? new Error('cancelled by the caller')),
  };
}

interface EventQueue {
  push(event: AgentEvent): void;
  end(): void;
  fail(error: unknown): void;
  iterator: AsyncIterableIterator<AgentEvent>;
}

function createEventQueue(): EventQueue {
  const items: AgentEvent[] = [];
  let outcome: { error?: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const iterator: AsyncIterableIterator<AgentEvent> = {
    async next() {
      while (items.length === 0 && !outcome) await new Promise<void>((resolve) => (wake = resolve));
      const item = items.shift();
      if (item) return { value: item, done: false };
      if (outcome && 'error' in outcome) {
        const { error } = outcome;
        outcome = {}; // thrown once; the next call just ends
        throw error;
      }
      return { value: undefined, done: true };
    },
    async return() {
      // The caller stopped reading (break): drop what is kept, keep nothing from now on.
      items.length = 0;
      outcome ??= {};
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return {
    push(event) {
      if (outcome) return;
      items.push(event);
      notify();
    },
    end() {
      outcome ??= {};
      notify();
    },
    fail(error) {
      outcome ??= { error };
      notify();
    },
    iterator,
  };
}

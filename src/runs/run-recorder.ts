import type { CheckpointHook, StoredCheckpoint } from '../agent/run-checkpoint.js';
import type { RunsConfig } from '../config/config-schema.js';
import type { Redactor } from '../core/errors/index.js';
import type { AgentEvent, AgentEventListener } from '../events/agent-events.js';
import { redactedEvent } from './event-json.js';
import { addCallCost, emptyRunUsage } from './run-cost.js';
import type { RunUsage } from './run-record.js';
import type { RunFinish, RunStore } from './run-store.js';

/** Events wait at most this long before they are written (a step-end or the run's end writes at once). */
const flushDelayMs = 250;

export interface RunRecorder {
  /** The observer to give the run. */
  observe: AgentEventListener;
  /** The checkpoint hook to give the run: pending events, then the state; settles once stored. */
  checkpoint: CheckpointHook;
  /** Writes the events received so far (SSE reads the store after calling it). */
  flush(): void;
  /** Writes what is left and the run's outcome; the usage is the one counted from its events. */
  finish(outcome: Omit<RunFinish, 'usage'>): void;
  readonly usage: RunUsage;
}

/**
 * Records one run's events as an observer, without slowing it: events are batched and written
 * in one transaction at each step's end, at the run's end, or after a quarter second. Every event
 * is redacted before it is stored. LLM calls are priced as they come (`llm-call` events).
 */
export function createRunRecorder(options: {
  store: RunStore;
  runId: string;
  redact: Redactor;
  prices: RunsConfig['prices'];
  /** Usage of the run's earlier processes (a resumed run adds to it). */
  usage?: RunUsage;
}): RunRecorder {
  const { store, runId, redact } = options;
  const usage = options.usage ? structuredClone(options.usage) : emptyRunUsage();
  let pending: AgentEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let stepEnded: NodeJS.Immediate | undefined;
  const take = (): AgentEvent[] => {
    clearTimeout(timer);
    timer = undefined;
    clearImmediate(stepEnded);
    stepEnded = undefined;
    const batch = pending;
    pending = [];
    return batch;
  };
  /** Puts a batch whose write failed back in front, for the next write. */
  const putBack = (batch: AgentEvent[]) => {
    pending = [...batch, ...pending];
  };
  const flush = () => {
    const batch = take();
    if (batch.length === 0) return;
    try {
      store.append(runId, batch);
    } catch (error) {
      putBack(batch);
      throw error;
    }
  };
  const flushQuietly = () => {
    try {
      flush();
    } catch {
      // Kept for the next write; if the store is broken, that one detaches this observer with a warning.
    }
  };
  return {
    usage,
    observe(event) {
      // Research's sections report with their own run ids; their events reach the task's observers
      // in the task bus's one sequence (EventBus.forward), so they are stored with the task's run.
      if (event.type === 'llm-call') addCallCost(usage, event, options.prices);
      pending.push(redactedEvent(event, redact));
      if (event.type === 'run-end') flush();
      else if (event.type === 'step-end') {
        // Written before the next step starts: with the step's checkpoint, which follows in this
        // turn of the event loop (one transaction, not two), or on their own just after.
        stepEnded ??= setImmediate(flushQuietly);
      } else if (!timer) {
        // Due at the next quarter-second of the clock rather than a quarter second from now: the
        // timed flushes of a process's runs fall due together, and a worker writes them as one batch.
        timer = setTimeout(flushQuietly, flushDelayMs - (Date.now() % flushDelayMs));
        timer.unref?.();
      }
    },
    checkpoint(checkpoint) {
      const batch = take();
      try {
        return store.checkpoint(runId, redactCheckpoint(checkpoint, redact), usage, undefined, batch);
      } catch (error) {
        putBack(batch);
        throw error;
      }
    },
    flush,
    finish(outcome) {
      flush();
      const result = outcome.result && redactJson(outcome.result, redact);
      store.finish(runId, { ...outcome, ...(result ? { result } : {}), usage });
    },
  };
}

function redactJson<T>(value: T, redact: Redactor): T {
  const text = JSON.stringify(value);
  const clean = redact(text);
  return clean === text ? value : (JSON.parse(clean) as T);
}

/**
 * What the model wrote (diary, knowledge, rejected answers) may repeat a key; the pages read come
 * from the web and are large, so they are left as read rather than re-serialised at every step.
 */
function redactCheckpoint(checkpoint: StoredCheckpoint, redact: Redactor): StoredCheckpoint {
  const { pages, ...state } = checkpoint.state;
  const light = { ...checkpoint, state };
  const clean = redactJson(light, redact);
  return clean === light ? checkpoint : ({ ...clean, state: { ...clean.state, pages } } as StoredCheckpoint);
}

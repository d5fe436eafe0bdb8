import type { CheckpointHook } from '../agent/run-checkpoint.js';
import type { DeepSearchConfig } from '../config/config-schema.js';
import { serviceSettings } from '../config/service-settings.js';
import { isAbortError, isInputError, isProviderError, type Redactor } from '../core/errors/index.js';
import type { AgentEventListener } from '../events/agent-events.js';
import type { RunError, RunRecord, RunSettings, RunSource } from './run-record.js';
import { createRunRecorder } from './run-recorder.js';
import type { RunStore } from './run-store.js';

/** How `runtime.run` records a run (`false`: not at all). */
export interface RecordOptions {
  /** Default `local`. */
  owner?: string;
  source?: RunSource;
  mode?: string;
  /** The options as the caller gave them (redacted); default: the run's settings. */
  options?: Record<string, unknown>;
  /** The stored run this one goes on with (resume): its usage so far is added to. */
  resumed?: RunRecord;
}

export interface Recording {
  observe: AgentEventListener;
  checkpoint: CheckpointHook;
  settle(outcome: { result: object } | { error: unknown }): void;
}

/**
 * The settings a run may have of its own (budget, agent, search choices, and a research run's
 * controller: concurrency, hops, writer share...), and the services it used (no keys): stored to
 * resume it with. The SearXNG URL is among the services, so `auto` chooses again as it did.
 */
export function runSettings(config: DeepSearchConfig, mode: string): RunSettings {
  const { provider, boostHostnames, badHostnames, onlyHostnames } = config.search;
  return {
    budget: { ...config.budget },
    agent: { ...config.agent },
    search: { provider, boostHostnames, badHostnames, onlyHostnames },
    ...(mode === 'research' ? { research: { ...config.research } } : {}),
    services: serviceSettings(config),
  };
}

/**
 * Starts recording a run in the store. A store that cannot be written is reported once through
 * `warn` and the run goes on unrecorded: history is never worth a failed answer.
 */
export function startRecording(input: {
  store: RunStore;
  runId: string;
  question: string;
  config: DeepSearchConfig;
  redact: Redactor;
  record: RecordOptions;
  warn: (message: string) => void;
}): Recording | undefined {
  const { store, runId, record } = input;
  const mode = record.mode ?? 'search';
  const settings = runSettings(input.config, mode);
  try {
    store.begin(
      {
        id: runId,
        owner: record.owner ?? 'local',
        source: record.source ?? 'library',
        mode,
        question: input.question,
        options: record.options ?? (settings as Record<string, unknown>),
        settings,
      },
      'running',
      process.pid,
    );
  } catch (error) {
    input.warn(`this run is not recorded: ${(error as Error).message}`);
    return undefined;
  }
  const recorder = createRunRecorder({
    store,
    runId,
    redact: input.redact,
    prices: input.config.runs.prices,
    usage: record.resumed?.usage ?? undefined,
  });
  return {
    observe: recorder.observe,
    checkpoint: recorder.checkpoint,
    settle(outcome) {
      try {
        if ('result' in outcome) recorder.finish({ status: 'completed', result: { ...outcome.result } });
        else
          recorder.finish({
            status: isAbortError(outcome.error) ? 'cancelled' : 'failed',
            error: runError(outcome.error, input.redact),
          });
      } catch (error) {
        input.warn(`the run's end was not recorded: ${(error as Error).message}`);
      }
    },
  };
}

/** A run's error as stored: its message redacted, and the kind of error the API answers it with. */
export function runError(error: unknown, redact: Redactor): RunError {
  const code = (error as { code?: unknown }).code;
  return {
    message: redact(error instanceof Error ? error.message : String(error)),
    type: isInputError(error)
      ? 'invalid_request_error'
      : isProviderError(error)
        ? 'upstream_error'
        : 'server_error',
    code: typeof code === 'string' ? code : null,
  };
}

import type { DeepSearchConfig } from '../config/config-schema.js';
import { type ConfigOverrides, deriveConfig } from '../config/derive-config.js';
import { InputError } from '../core/errors/index.js';
import type { AgentEventListener } from '../events/agent-events.js';
import type { DeepSearchResult } from '../events/deep-search-result.js';
import { createRunHandle, type RunHandle } from '../events/run-handle.js';
import {
  type AskOptions,
  createRuntime,
  type DeepSearchRuntime,
  type RunOutcomeOf,
  type RunRequest,
  type RuntimeOptions,
} from '../runtime/create-runtime.js';

/** What every run of the library API takes besides its question. */
export interface RunOptions {
  /** Cancels the run; it stops within a second and `result` rejects with an AbortedError. */
  signal?: AbortSignal;
  /**
   * Budget, agent, search (and research's controller) settings of this run only
   * (`{ budget: budgetPresets.low }`, `{ research: { maxHops: 2 } }`), on top of the config; validated by the same schema (a ConfigError names the bad setting).
   */
  overrides?: ConfigOverrides;
  /** Observers called with each event as it happens (besides `run.events`). One that throws is detached. */
  observers?: ReadonlyArray<AgentEventListener>;
  /** The run's id (default: a new UUID); every event carries it. */
  runId?: string;
  /** Keep events for `run.events` (default true); turn off when only observers read them. */
  bufferEvents?: boolean;
  /** How the run is recorded in the run store (default: owner `local`); false: not recorded. */
  record?: AskOptions['record'];
}

interface DeepSearchRunOptions extends RunOptions {
  /** Earlier turns of a conversation, given to the agent as chat history. */
  history?: ReadonlyArray<{ question: string; answer: string }>;
}

/**
 * Where the run gets its providers: a runtime made with `createRuntime` (shared by many runs; its
 * `config` may then be this run's own, e.g. from `deriveConfig`), or a config from `loadConfig`,
 * from which a runtime is made for this run and closed after it.
 */
export type DeepSearchOptions = DeepSearchRunOptions &
  (
    | { runtime: DeepSearchRuntime; config?: DeepSearchConfig }
    | { runtime?: undefined; config: DeepSearchConfig; runtimeOptions?: Omit<RuntimeOptions, 'config'> }
  );

export type DeepSearchRun = RunHandle<DeepSearchResult>;

/**
 * Starts a deep search: `run.events` yields its events as they happen (`for await`), `run.result`
 * its answer with verified references, on `runtime.run` (which the CLI's `ask`, the server and
 * the MCP tool call directly).
 */
export function deepSearch(question: string, options: DeepSearchOptions): DeepSearchRun {
  return startRun(options, { mode: 'search', question, history: options.history });
}

/** The mode's own part of a library run's request; the rest comes from the options. */
type ModeRequest = Extract<RunRequest, { mode: 'search' }> | Extract<RunRequest, { mode: 'research' }>;

/**
 * A library run as a handle: `runtime.run` on the caller's runtime (or one made from the config
 * for this run and closed after it), with the options' overrides, observers, id and record.
 */
export function startRun<Request extends ModeRequest>(
  options: Omit<DeepSearchOptions, 'history'>,
  request: Request,
): RunHandle<RunOutcomeOf<Request>['result']> {
  return createRunHandle(options, async ({ observer, signal }) => {
    const { runtime, owned } = runtimeFor(options);
    try {
      const base = options.config ?? runtime.config;
      const { result } = await runtime.run({
        ...request,
        signal,
        runId: options.runId,
        config: options.overrides ? deriveConfig(base, options.overrides) : options.config,
        observers: [observer, ...(options.observers ?? [])],
        record: options.record,
      });
      return result as RunOutcomeOf<Request>['result'];
    } finally {
      if (owned) runtime.close();
    }
  });
}

/** The caller's runtime, or one made from the config for this run (`owned`: closed after it). */
function runtimeFor(options: {
  runtime?: DeepSearchRuntime;
  config?: DeepSearchConfig;
  runtimeOptions?: Omit<RuntimeOptions, 'config'>;
}): { runtime: DeepSearchRuntime; owned: boolean } {
  if (options.runtime) return { runtime: options.runtime, owned: false };
  if (!options.config) {
    throw new InputError('pass a runtime (createRuntime) or a config (loadConfig) in the options', {
      param: 'runtime',
    });
  }
  return { runtime: createRuntime({ ...options.runtimeOptions, config: options.config }), owned: true };
}

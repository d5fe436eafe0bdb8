import { randomUUID } from 'node:crypto';
import type { CheckpointHook } from '../agent/run-checkpoint.js';
import type { StoredPage } from '../agent/state/page-store.js';
import type { DeepSearchConfig } from '../config/config-schema.js';
import type { AgentEventBody, AgentEventListener } from '../events/agent-events.js';
import { type FittedContext, fitContextWindow } from '../platform/llm-context/fit-context-window.js';
import { assertFitsContext } from '../providers/llm/assert-fits-context.js';
import { assertSearchConfigured } from '../providers/search/search-provider-choice.js';
import type { SearchProvider } from '../providers/spec/search-provider.js';
import type { HostHealth } from '../retrieval/host-health.js';
import { startRecording } from '../runs/run-recording.js';
import { traceRun } from '../telemetry/trace-run.js';
import type { AskOptions } from './create-runtime.js';
import type { RunProviders, RuntimeProviders } from './runtime-providers.js';

/** What a mode's run gets from the runtime once it is fitted to the model and its recording began. */
export interface RunSetup extends RunProviders {
  question: string;
  runId: string;
  /** The run's config fitted to the model's window. */
  config: DeepSearchConfig;
  search: SearchProvider;
  hostHealth: HostHealth;
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
  /** The recorder first, then the caller's: what a client is shown is already being stored. */
  observers: AgentEventListener[];
  onCheckpoint?: CheckpointHook;
  /** Told of each page read (the recording keeps the cited ones as the run's evidence). */
  onPageRead?: (page: StoredPage) => void;
  /** Warnings found before the run (a smaller window, a store that cannot record): reported at its start. */
  notices: string[];
}

/** A mode's run, prepared: its bus, and the work. */
export interface PreparedModeRun<Result> {
  events: { emit(body: AgentEventBody): unknown };
  execute(): Promise<Result>;
}

/** A run mode (deep search, research) as the recorded run drives it. */
export interface RunMode<Result> {
  mode: 'search' | 'research';
  /** Loads the mode's code on first use: a runtime that only searches or reads never loads the agent. */
  load(): Promise<(setup: RunSetup) => PreparedModeRun<Result>>;
}

/**
 * The one wrapper around every run of the runtime, whatever its mode: fitted to the model's window,
 * recorded in the run store (unless `record: false`), its cited hosts' trust saved after it, a
 * failure to save reported as a warning on the run's bus.
 */
export async function recordedRun<Result extends { references: ReadonlyArray<{ url: string }> }>(
  runtime: RuntimeProviders,
  question: string,
  options: Omit<AskOptions, 'history'> & Pick<AskOptions, 'history'>,
  mode: RunMode<Result>,
): Promise<Result> {
  const { runs, redact, trust } = runtime;
  const [prepare, fitted] = await Promise.all([mode.load(), fitRun(runtime, question, options)]);
  const config = fitted.config;
  const runId = options.runId ?? randomUUID();
  const notices = fitted.warning ? [fitted.warning] : [];
  const recording =
    runs && options.record !== false
      ? startRecording({
          store: runs,
          runId,
          question,
          config,
          redact,
          record: { mode: mode.mode, ...options.record },
          warn: (message) => notices.push(message),
        })
      : undefined;
  const hostHealth = await trust.load();
  const spans = traceRun({ runId, mode: mode.mode, question, config });
  const run = prepare({
    ...runtime.parts,
    question,
    runId,
    config,
    search: runtime.runSearch(config),
    hostHealth,
    signal: options.signal,
    onEvent: options.onEvent,
    observers: [
      ...(recording ? [recording.observe] : []),
      ...(spans ? [spans.observe] : []),
      ...(options.observers ?? []),
    ],
    onCheckpoint: recording?.checkpoint,
    onPageRead: recording?.pageRead,
    notices,
  });
  let cited: Result['references'] | undefined;
  try {
    const result = await run.execute();
    cited = result.references;
    recording?.settle({ result });
    spans?.end({});
    return result;
  } catch (error) {
    recording?.settle({ error });
    spans?.end({ error });
    throw error;
  } finally {
    await trust.settle(hostHealth, cited, (message) =>
      run.events.emit({ type: 'warning', step: 0, message }),
    );
  }
}

/**
 * Checks a run's input against the model's window before any LLM call (an oversized question
 * is the user's to fix), and fits the run's config to the window the server really has.
 */
async function fitRun(
  runtime: RuntimeProviders,
  question: string,
  runOptions: Pick<AskOptions, 'config' | 'history' | 'signal'>,
): Promise<FittedContext> {
  const runConfig = runOptions.config ?? runtime.config;
  assertFitsContext({ question, history: runOptions.history, contextTokens: runConfig.llm.contextTokens });
  // A missing SearXNG instance fails here, before any LLM call (the window query included).
  if (!runtime.options.search) assertSearchConfigured(runConfig);
  const window = await runtime.parts.llm.contextWindow('agent', runOptions.signal);
  const fitted = fitContextWindow(runConfig, window);
  assertFitsContext({
    question,
    history: runOptions.history,
    contextTokens: fitted.config.llm.contextTokens,
  });
  return fitted;
}

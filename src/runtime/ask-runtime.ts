import { randomUUID } from 'node:crypto';
import type { RunRestore } from '../agent/run-checkpoint.js';
import type { DeepSearchResult } from '../events/agent-types.js';
import { startRecording } from '../runs/run-recording.js';
import type { AskOptions } from './create-runtime.js';
import { fitRun } from './fit-run.js';
import type { RuntimeProviders } from './runtime-providers.js';

/**
 * One deep search run on the runtime's providers: fitted to the model's window, recorded in the
 * run store, its cited hosts' trust saved after it. `restore` goes on from a stored checkpoint.
 */
export async function askRuntime(
  runtime: RuntimeProviders,
  question: string,
  askOptions: AskOptions,
  restore?: RunRestore,
): Promise<DeepSearchResult> {
  const { runs, redact, trust } = runtime;
  // The agent (and the AI SDK behind it) loads on the first question, so a runtime made only
  // to search or read pages (deepsearch search, read) never loads it.
  const [{ prepareRun }, { runLoop }, fitted] = await Promise.all([
    import('../agent/run-deep-search.js'),
    import('../agent/run-loop.js'),
    fitRun(runtime, question, askOptions),
  ]);
  const runConfig = fitted.config;
  const runId = askOptions.runId ?? randomUUID();
  const warnings = fitted.warning ? [fitted.warning] : [];
  const recording =
    runs && askOptions.record !== false
      ? startRecording({
          store: runs,
          runId,
          question,
          config: runConfig,
          redact,
          record: askOptions.record ?? {},
          warn: (message) => warnings.push(message),
        })
      : undefined;
  const health = trust.hostHealth();
  let cited: DeepSearchResult['references'] | undefined;
  const run = prepareRun({
    question,
    ...runtime.parts,
    hostHealth: health,
    config: runConfig,
    search: runtime.runSearch(runConfig),
    signal: askOptions.signal,
    onEvent: askOptions.onEvent,
    // The recorder before the caller's observers: what a client is shown is already being stored.
    observers: [...(recording ? [recording.observe] : []), ...(askOptions.observers ?? [])],
    history: askOptions.history,
    runId,
    restore,
    onCheckpoint: recording?.checkpoint,
  });
  for (const message of warnings) run.events.emit({ type: 'warning', step: 0, message });
  try {
    const result = await runLoop(run);
    cited = result.references;
    recording?.settle({ result });
    return result;
  } catch (error) {
    recording?.settle({ error });
    throw error;
  } finally {
    trust.settle(health, cited, (message) => run.events.emit({ type: 'warning', step: 0, message }));
  }
}

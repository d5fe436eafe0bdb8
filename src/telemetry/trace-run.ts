import type { DeepSearchConfig } from '../config/config-schema.js';
import { resolveLlmSettings } from '../config/resolve-llm-settings.js';
import { createRunSpans, type RunSpans } from './run-spans.js';
import { activeTracing } from './start-tracing.js';

/** A run's spans when this process traces (startTracing), else undefined: nothing is made. */
export function traceRun(run: {
  runId: string;
  mode: 'search' | 'research';
  question: string;
  config: DeepSearchConfig;
}): RunSpans | undefined {
  const tracing = activeTracing();
  if (!tracing) return undefined;
  const { config } = run;
  return createRunSpans(tracing, {
    runId: run.runId,
    mode: run.mode,
    question: run.question,
    llmSystem: (role) => {
      try {
        return resolveLlmSettings(config, role).provider;
      } catch {
        return config.llm.provider ?? 'unknown';
      }
    },
    searchProvider: config.search.provider,
    reader: config.reader.provider,
  });
}

import { deriveConfig } from '../config/derive-config.js';
import type { ResearchPlan, ResearchReport } from '../events/research-types.js';
import { createRunHandle, type RunHandle } from '../events/run-handle.js';
import type { DeepSearchOptions, RunOptions } from './deep-search.js';
import { runtimeFor } from './deep-search.js';

/** Research's options: those of every run, where its providers come from, and an edited plan. */
export type ResearchRunOptions = RunOptions &
  Omit<DeepSearchOptions, 'history' | keyof RunOptions> & {
    /** A plan a person edited (`parsePlanMarkdown` reads the `--outline-only` markdown): planning is skipped. */
    plan?: ResearchPlan;
  };

export type ResearchRun = RunHandle<ResearchReport>;

/**
 * Starts research mode: `run.events` yields its events (persona lines, the plan, coverage, the
 * sections' deep-search events with their own run ids), `run.result` the report with verified
 * footnotes. The CLI's `research`, the server's `deepsearch-research` model and the MCP tool run
 * the same `runtime.run({ mode: 'research' })`.
 */
export function research(topic: string, options: ResearchRunOptions): ResearchRun {
  return createRunHandle(options, async ({ observer, signal }) => {
    const { runtime, owned } = runtimeFor(options);
    try {
      const base = options.config ?? runtime.config;
      const { result } = await runtime.run({
        mode: 'research',
        question: topic,
        signal,
        plan: options.plan,
        runId: options.runId,
        config: options.overrides ? deriveConfig(base, options.overrides) : options.config,
        observers: [observer, ...(options.observers ?? [])],
        record: options.record,
      });
      return result;
    } finally {
      if (owned) runtime.close();
    }
  });
}

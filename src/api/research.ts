import type { ResearchPlan, ResearchReport } from '../events/research-result.js';
import type { RunHandle } from '../events/run-handle.js';
import type { DeepSearchOptions, RunOptions } from './deep-search.js';
import { startRun } from './deep-search.js';

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
  return startRun(options, { mode: 'research', question: topic, plan: options.plan });
}

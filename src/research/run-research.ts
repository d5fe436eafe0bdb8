import { AbortedError, throwIfAborted } from '../core/errors/index.js';
import type { EventBus } from '../events/event-bus.js';
import type { ResearchPlan, ResearchReport } from '../events/research-result.js';
import { gatherEvidence } from './gather/gather-evidence.js';
import { estimateResearch } from './plan/estimate-research.js';
import { planResearch } from './plan/plan-research.js';
import { renderReportMarkdown } from './render-report-markdown.js';
import type { ResearchEstimate } from './research-checkpoint.js';
import { createResearchContext, type ResearchContext, type ResearchInput } from './research-context.js';
import { researchPhaseSteps } from './research-steps.js';
import { type WrittenReport, writeReport } from './write/write-report.js';

export type { ResearchInput } from './research-context.js';

/**
 * Research mode (DeepResearch as
 * https://jina.ai/news/a-practical-guide-to-implementing-deepsearch-deepresearch/ describes it): plan an outline with its data points, research each section
 * through the deep-search loop as parts of one task (one budget, shared pages and knowledge),
 * then write the report from what was found. Progress comes as persona events.
 */
export async function runResearch(input: ResearchInput): Promise<ResearchReport> {
  return prepareResearch(input).run();
}

/**
 * The task's context and bus without starting it (as prepareRun for deep search): the runtime
 * reports on the bus what it learns after the run (a trust profile it could not save).
 */
export function prepareResearch(input: ResearchInput): { events: EventBus; run(): Promise<ResearchReport> } {
  const research = createResearchContext(input);
  return { events: research.events, run: () => executeResearch(research) };
}

async function executeResearch(research: ResearchContext): Promise<ResearchReport> {
  const { task, events, progress, input } = research;
  const { budget } = task;
  task.emit({ type: 'run-start', question: input.topic, language: task.language.name });
  for (const message of input.notices ?? []) task.emit({ type: 'warning', step: 0, message });
  try {
    const resumed = progress.planned;
    const { plan, estimate } = resumed
      ? { plan: resumed.plan, estimate: estimateLeft(research, resumed.plan) }
      : await makePlan(research, input);
    task.emit({ type: 'research-plan', plan, estimate });
    if (!resumed) await progress.plan(plan, estimate);
    else
      research.say(
        'strategist',
        progress.written
          ? 'resuming: the report is written already'
          : `resuming: ${progress.gatheredCount} of ${plan.sections.length} section(s) already gathered`,
      );
    throwIfAborted(input.signal);
    const written = progress.written ?? (await gatherAndWrite(research, plan));
    const skipped = [...task.state.skipped.values()];
    const report: ResearchReport = {
      runId: task.runId,
      topic: input.topic,
      ...written,
      markdown: renderReportMarkdown({ ...written, skipped }),
      plan,
      usage: budget.usage(),
      durationMs: budget.elapsedMs,
      budget: {
        maxTokens: budget.maxTokens,
        tokensUsed: budget.usage().totalTokens,
        maxTimeMs: budget.maxTimeMs,
        elapsedMs: budget.elapsedMs,
        stepsUsed: budget.steps,
      },
      skipped,
      warnings: [...events.warnings],
    };
    task.emit({ type: 'research-end', report });
    return report;
  } catch (error) {
    if (input.signal?.aborted) throw new AbortedError(undefined, { cause: error });
    throw error;
  } finally {
    budget.dispose();
  }
}

/** The outline (planned, or the one given) and its estimated cost. */
async function makePlan(
  research: ResearchContext,
  input: ResearchInput,
): Promise<{ plan: ResearchPlan; estimate: ResearchEstimate }> {
  let plan: ResearchPlan;
  if (input.plan) {
    plan = input.plan;
    research.say('strategist', `following the given outline: ${plan.sections.length} sections`);
  } else {
    research.say('strategist', 'planning the report: outline, research questions and required data points');
    plan = await planResearch(research, input.topic);
  }
  return { plan, estimate: estimateFor(research, plan) };
}

/**
 * A resumed task's estimate: only the sections not gathered yet (and the probe if it is still to
 * do), against the budget it has left; the saved one was the whole run's.
 */
function estimateLeft(research: ResearchContext, plan: ResearchPlan): ResearchEstimate {
  const { progress } = research;
  if (progress.written) return estimateFor(research, plan, { open: [], probe: false });
  const open = plan.sections.filter((section) => !progress.section(section.id)).map((section) => section.id);
  return estimateFor(research, plan, { open, probe: !progress.facts });
}

function estimateFor(
  research: ResearchContext,
  plan: ResearchPlan,
  left: { open?: string[]; probe?: boolean } = {},
): ResearchEstimate {
  const { task, input } = research;
  const available = task.budget.available();
  const sections = left.open?.length ?? plan.sections.length;
  return estimateResearch(plan, {
    maxTokens: available.tokens,
    maxTimeMs: available.timeMs,
    // What the research phase will be given (gather-evidence.ts), from the input's config.
    maxSteps: researchPhaseSteps(input.config, sections, available.steps),
    concurrency: task.config.research.concurrency,
    maxHops: task.config.research.maxHops,
    contextTokens: task.config.llm.contextTokens,
    ...left,
  });
}

/**
 * The research phase (sections already gathered are kept), then the writing (a draft already
 * written is kept); each section, the draft and the report end in a checkpoint.
 */
async function gatherAndWrite(research: ResearchContext, plan: ResearchPlan): Promise<WrittenReport> {
  const { task, input } = research;
  const evidence = await gatherEvidence(research, plan);
  throwIfAborted(input.signal);
  const written = await writeReport(research, evidence, {
    drafted: research.progress.draft,
    onDrafted: (drafted) => research.progress.drafted(drafted),
    // Domain trust profiles (kept across runs) where a domain was seen; the writer's offline
    // heuristic for one never seen.
    trustOf: (host) => {
      const profile = task.hostHealth.trustOf(host);
      return profile.seen ? profile.trust.score : undefined;
    },
  });
  await research.progress.wrote(written);
  return written;
}

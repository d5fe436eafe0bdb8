import type { RunContext } from '../../agent/run-context.js';
import { anySignal } from '../../core/link-signals.js';
import type { ResearchEventBody } from '../../events/research-events.js';
import type { ResearchEvidence, ResearchPlan, SectionEvidence } from '../../events/research-result.js';
import {
  countIndependentSources,
  type GroupablePage,
  type PageGrouping,
} from '../../retrieval/page-groups.js';
import { probeDataPoints } from '../plan/probe-data-points.js';
import type { ResearchContext } from '../research-context.js';
import { researchPhaseSteps } from '../research-steps.js';
import { advisoryCall } from './advisory-call.js';
import { BudgetShares } from './budget-shares.js';
import { HopSlots } from './hop-slots.js';
import { researchSection } from './research-section.js';

/**
 * The research phase: the data points' strategies, then every section's hops, `concurrency`
 * sections at a time, all drawing from one budget — the task's less the writer's share
 * (`research.writerShare` of tokens, steps and time; steps are research's own unless chosen:
 * research-steps.ts) — and sharing the task's pages and
 * knowledge, so a page is read once. When a section fails the others are stopped too. The
 * probe's facts and each section's evidence are checkpointed as they come; a resumed task keeps
 * those (no call of theirs is made again) and researches only the sections not gathered yet.
 */
export async function gatherEvidence(
  research: ResearchContext,
  plan: ResearchPlan,
): Promise<ResearchEvidence> {
  const { task, progress } = research;
  const config = task.config.research;
  const left = task.budget.available();
  const keep = 1 - config.writerShare;
  const open = plan.sections.filter((section) => !progress.section(section.id));
  const pool = task.budget.child({
    maxTokens: Math.floor(left.tokens * keep),
    // The input's config: the task's holds the steps research chose for it (research-context.ts).
    maxSteps: researchPhaseSteps(research.input.config, open.length, left.steps),
    maxTimeMs: Math.floor(left.timeMs * keep),
  });
  pool.llmAnswered = task.budget.llmAnswered;
  const stop = new AbortController();
  const signal = anySignal(stop.signal, research.input.signal);
  const context: RunContext = {
    ...task,
    budget: pool,
    cancelSignal: signal,
    signal: anySignal(signal, pool.hardSignal),
    finalSignal: anySignal(signal, pool.hardSignal),
  };
  try {
    let facts = progress.facts;
    if (!facts) {
      facts =
        (await advisoryCall(
          context,
          { what: 'probing the data points', instead: 'the sections start without proposed facts' },
          () => probeDataPoints(research, plan, context),
        )) ?? [];
      await progress.probed(facts);
    }
    const shares = new BudgetShares(pool, config.concurrency);
    for (const section of open) shares.register(section.id, config.maxHops);
    const slots = new HopSlots(config.concurrency);
    if (open.length > 0)
      research.say(
        'strategist',
        `researching ${open.length} section(s), ${Math.min(config.concurrency, open.length)} at a time, up to ${config.maxHops} hop(s) each; ${Math.round(config.writerShare * 100)}% of the budget is kept for writing`,
      );
    const run = { research, plan, context, pool, shares, slots, signal, facts };
    const sections = await Promise.all(
      plan.sections.map(
        (section) =>
          progress.section(section.id) ??
          researchSection(run, section).then(
            async (evidence) => {
              await progress.gathered(evidence);
              task.emit(gatheredEvent(evidence, task.state.pages.grouping()));
              return evidence;
            },
            (error: unknown) => {
              stop.abort(error);
              throw error;
            },
          ),
      ),
    );
    return { plan, sections, contradictions: [] };
  } finally {
    pool.release();
  }
}

/**
 * A section's research is over: how much of it is covered, after how many hops, from how many
 * independent sources (copies of one story count once).
 */
function gatheredEvent(
  { section, coverage }: SectionEvidence,
  grouping: PageGrouping<GroupablePage>,
): ResearchEventBody {
  const urls = coverage.items.flatMap((item) => (item.sources ?? []).map((source) => source.url));
  return {
    type: 'research-section',
    section: section.id,
    state: 'gathered',
    covered: coverage.items.filter((item) => item.covered).length,
    total: coverage.items.length,
    hops: coverage.hops,
    ...(coverage.stopped ? { stopped: coverage.stopped } : {}),
    sources: countIndependentSources(urls, grouping),
  };
}

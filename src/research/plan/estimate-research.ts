import type { ResearchEstimate, ResearchPlan } from '../../events/research-result.js';
import { smallContextTokens } from '../../platform/llm-context/fit-context-window.js';

/**
 * LLM calls one question costs in a hop: its search (with the rewriter's call) and a read, about
 * three; the hop's answer and its judges are counted per hop below.
 */
const callsPerQuestion = 3;
/** Per hop: the hop's answer, its evaluation (criteria, one judge), the librarian, next-hop queries. */
const callsPerHop = 5;
/**
 * Steps per hop: its deep search (search, read, answer, a retry now and then) and its share of the
 * fact-check's verification searches (the bench world: 66 steps for 7 hops).
 */
const stepsPerHop = 8;
/**
 * Tokens of a typical call (prompt and reply) by the model's profile, as measured: about 1.4k a
 * call on the bench world (bench/research-bench.ts), 0.6k on the e2e world
 * (test/e2e/cli-research-budgets.test.ts), both of short pages. Prompts are cut to the context
 * window, and windows up to 16k get the small profile. Long real pages cost more a call; 2.5k and
 * 4k (the figures before) made a default run's estimate six times its cost.
 */
const tokensPerCall = { small: 800, standard: 1_000 } as const;
/** Writing prompts hold a section's evidence: about twice a research call. */
const writingCallFactor = 2;
const msPerLlmCall = 4_000;
/**
 * The share of a section's later hops that run: most sections are covered after their first
 * hop (2 of 5 needed a second one on the bench world, none a third).
 */
const laterHopShare = 0.25;

/**
 * What the plan is likely to cost, printed before research starts: the data points' probes,
 * every section's questions in its first hop and, for a quarter of its items, in each later hop,
 * each at the calls and tokens a question typically takes with this model's profile; then
 * writing. Time assumes `concurrency` sections at once. Only the sections still `open` (a resumed
 * task's others are gathered) are counted, and writing only if it is still to do. Not capped by
 * the budget: the budget is reported beside it, and research stops when the budget runs out.
 */
export function estimateResearch(
  plan: ResearchPlan,
  limits: {
    maxTokens: number;
    maxTimeMs: number;
    /** The research phase's steps (research's own unless chosen: research-steps.ts). */
    maxSteps?: number;
    concurrency: number;
    maxHops?: number;
    contextTokens: number;
    /** The sections still to research; all of them by default. */
    open?: readonly string[];
    /** Whether the data points are still to probe (a resumed task's are done). */
    probe?: boolean;
  },
): ResearchEstimate {
  const hops = Math.max(1, limits.maxHops ?? 1);
  const sections = limits.open
    ? plan.sections.filter((section) => limits.open!.includes(section.id))
    : plan.sections;
  const probes =
    limits.probe !== false && plan.dataPoints.some((point) => point.strategy !== 'web-search') ? 4 : 0;
  let questionHops = 0;
  let hopCount = 0;
  for (const section of sections) {
    const items =
      section.questions.length + plan.dataPoints.filter((point) => point.sectionId === section.id).length;
    questionHops += items + (hops - 1) * items * laterHopShare;
    hopCount += 1 + (hops - 1) * laterHopShare;
  }
  const writing = plan.sections.length + 4;
  const researchCalls = Math.round(questionHops * callsPerQuestion + hopCount * callsPerHop);
  const perCall = limits.contextTokens <= smallContextTokens ? tokensPerCall.small : tokensPerCall.standard;
  const tokens = (probes + researchCalls) * perCall + writing * perCall * writingCallFactor;
  const parallel = Math.max(1, Math.min(limits.concurrency, sections.length));
  const timeMs = (probes + Math.ceil(researchCalls / parallel) + writing) * msPerLlmCall;
  return {
    tokens,
    timeMs,
    llmCalls: probes + researchCalls + writing,
    steps: Math.round(hopCount * stepsPerHop),
    budgetTokens: limits.maxTokens,
    budgetMs: limits.maxTimeMs,
    ...(limits.maxSteps !== undefined ? { budgetSteps: limits.maxSteps } : {}),
    ...(limits.open ? { sections: sections.length } : {}),
  };
}

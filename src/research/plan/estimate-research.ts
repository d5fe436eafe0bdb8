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
 * Tokens of a typical call (prompt and reply) by the model's profile: prompts are cut to the
 * context window, and windows up to 16k get the small profile (knowledge capped at 6k tokens).
 */
const tokensPerCall = { small: 2_500, standard: 4_000 } as const;
/** Writing prompts hold a section's evidence: about twice a research call. */
const writingCallFactor = 2;
const msPerLlmCall = 4_000;
/** Later hops search only what is missing: about half of the items, by experience. */
const laterHopShare = 0.5;

/**
 * What the plan is likely to cost, printed before research starts: the data points' probes,
 * every section's questions in its first hop and, for half its items, in the later hops, each at
 * the calls and tokens a question typically takes with this model's profile; then writing. Time
 * assumes `concurrency` sections at once. Not capped by the budget: the budget is reported beside
 * it, and research stops when the budget runs out.
 */
export function estimateResearch(
  plan: ResearchPlan,
  limits: {
    maxTokens: number;
    maxTimeMs: number;
    concurrency: number;
    maxHops?: number;
    contextTokens: number;
  },
): ResearchEstimate {
  const hops = Math.max(1, limits.maxHops ?? 1);
  const probes = plan.dataPoints.some((point) => point.strategy !== 'web-search') ? 4 : 0;
  let questionHops = 0;
  let hopCount = 0;
  for (const section of plan.sections) {
    const items =
      section.questions.length + plan.dataPoints.filter((point) => point.sectionId === section.id).length;
    questionHops += items + (hops - 1) * Math.ceil(items * laterHopShare);
    hopCount += 1 + (hops - 1) * laterHopShare;
  }
  const writing = plan.sections.length + 4;
  const researchCalls = Math.round(questionHops * callsPerQuestion + hopCount * callsPerHop);
  const perCall = limits.contextTokens <= smallContextTokens ? tokensPerCall.small : tokensPerCall.standard;
  const tokens = (probes + researchCalls) * perCall + writing * perCall * writingCallFactor;
  const parallel = Math.max(1, Math.min(limits.concurrency, plan.sections.length));
  const timeMs = (probes + Math.ceil(researchCalls / parallel) + writing) * msPerLlmCall;
  return {
    tokens,
    timeMs,
    llmCalls: probes + researchCalls + writing,
    budgetTokens: limits.maxTokens,
    budgetMs: limits.maxTimeMs,
  };
}

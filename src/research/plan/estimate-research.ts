import type { ResearchPlan } from '../../events/research-types.js';

/** Rough cost of one deep-search question in a hop (prompts grow with what was read). */
const tokensPerQuestion = 40_000;
const llmCallsPerQuestion = 6;
const msPerLlmCall = 4_000;
/** Later hops search only what is missing: about half of the items, by experience. */
const laterHopShare = 0.5;
/** Per hop: the librarian's check and next-hop query generation. */
const controllerCallsPerHop = 2;
const tokensPerControllerCall = 6_000;

/**
 * What the plan is likely to cost, printed before research starts, capped by the budget: the
 * data points' probes, every section's first hop and (for half its items) the later hops, then
 * writing. Time assumes `concurrency` sections at once.
 */
export function estimateResearch(
  plan: ResearchPlan,
  limits: { maxTokens: number; maxTimeMs: number; concurrency: number; maxHops?: number },
): { tokens: number; timeMs: number; llmCalls: number } {
  const hops = Math.max(1, limits.maxHops ?? 1);
  const probes = plan.dataPoints.some((point) => point.strategy !== 'web-search') ? 4 : 0;
  let questionHops = 0;
  let hopCount = 0;
  for (const section of plan.sections) {
    const items =
      section.questions.length + plan.dataPoints.filter((point) => point.sectionId === section.id).length;
    questionHops += items + (hops - 1) * Math.ceil(items * laterHopShare);
    hopCount += hops;
  }
  const writing = plan.sections.length + 2;
  const researchCalls = questionHops * llmCallsPerQuestion + hopCount * controllerCallsPerHop;
  const llmCalls = probes + researchCalls + writing;
  const tokens = Math.min(
    limits.maxTokens,
    questionHops * tokensPerQuestion +
      (hopCount * controllerCallsPerHop + probes) * tokensPerControllerCall +
      writing * 8_000,
  );
  const parallel = Math.max(1, Math.min(limits.concurrency, plan.sections.length));
  const timeMs = Math.min(
    limits.maxTimeMs,
    (probes + Math.ceil(researchCalls / parallel) + writing) * msPerLlmCall,
  );
  return { tokens, timeMs, llmCalls };
}

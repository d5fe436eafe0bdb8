import { describe, expect, it } from 'vitest';
import type { ResearchPlan } from '../../events/research-result.js';
import { estimateResearch } from './estimate-research.js';

function plan(sections: number, questions: number): ResearchPlan {
  return {
    topic: 't',
    title: 't',
    language: 'en',
    sections: Array.from({ length: sections }, (_, index) => ({
      id: `s${index + 1}`,
      heading: `Section ${index + 1}`,
      questions: Array.from({ length: questions }, (_, at) => `question ${at + 1}?`),
    })),
    dataPoints: [],
  };
}

const limits = {
  maxTokens: 1_000_000,
  maxTimeMs: 600_000,
  concurrency: 3,
  maxHops: 3,
  contextTokens: 32_768,
};

describe('estimateResearch', () => {
  it('comes from the plan, not from the budget, and reports the budget beside it', () => {
    const small = estimateResearch(plan(2, 2), limits);
    const large = estimateResearch(plan(4, 4), limits);
    expect(small.tokens).toBeLessThan(limits.maxTokens / 2);
    expect(large.tokens).toBeGreaterThan(small.tokens * 2);
    expect(large.llmCalls).toBeGreaterThan(small.llmCalls * 2);
    expect(small).toMatchObject({ budgetTokens: 1_000_000, budgetMs: 600_000 });
    expect(estimateResearch(plan(2, 2), { ...limits, maxTokens: 2_000_000 }).tokens).toBe(small.tokens);
  });

  it('costs less per call under the small model profile, and may exceed a small budget (said, not hidden)', () => {
    const standard = estimateResearch(plan(3, 3), limits);
    const smallProfile = estimateResearch(plan(3, 3), { ...limits, contextTokens: 8192 });
    expect(smallProfile.tokens).toBeLessThan(standard.tokens);
    expect(smallProfile.llmCalls).toBe(standard.llmCalls);
    const tight = estimateResearch(plan(3, 3), { ...limits, maxTokens: 20_000 });
    expect(tight.tokens).toBeGreaterThan(tight.budgetTokens!);
  });
});

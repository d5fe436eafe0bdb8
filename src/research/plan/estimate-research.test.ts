import { describe, expect, it } from 'vitest';
import { describeEstimate } from '../../events/describe-event.js';
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

describe('estimateResearch: steps, and a resumed task', () => {
  it('counts the steps of the hops beside the research phase steps it will be given', () => {
    const estimate = estimateResearch(plan(3, 2), { ...limits, maxSteps: 108 });
    expect(estimate.steps).toBeGreaterThan(0);
    expect(estimate.budgetSteps).toBe(108);
  });

  it('counts only the sections left, and no probe once it was made', () => {
    const whole = estimateResearch(plan(3, 2), limits);
    const left = estimateResearch(plan(3, 2), { ...limits, open: ['s3'], probe: false });
    expect(left.sections).toBe(1);
    expect(left.llmCalls).toBeLessThan(whole.llmCalls);
    expect(left.tokens).toBeLessThan(whole.tokens);
    expect(left.steps).toBe(Math.round(whole.steps! / 3));
  });
});

describe('describeEstimate', () => {
  it('rounds tokens to two figures and names every budget the estimate passes, with its flag', () => {
    const within = describeEstimate({
      tokens: 428_000,
      timeMs: 180_000,
      llmCalls: 100,
      steps: 40,
      budgetTokens: 1_000_000,
      budgetMs: 600_000,
      budgetSteps: 108,
    });
    expect(within).toBe(
      'estimate: ~430k tokens of 1M budget, ~3 min of 10 min, ~40 steps of 108, ~100 LLM calls',
    );
    const over = describeEstimate({
      tokens: 428_000,
      timeMs: 900_000,
      llmCalls: 100,
      steps: 40,
      budgetTokens: 200_000,
      budgetMs: 600_000,
      budgetSteps: 22,
      sections: 1,
    });
    expect(over).toBe(
      'estimate for the 1 section left: ~430k tokens of 200k budget, ~15 min of 10 min, ~40 steps of 22, ' +
        '~100 LLM calls (the budget will stop it first: tokens (--max-tokens), time (--max-time), steps (--max-steps))',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { Budget } from '../agent/budget.js';
import { recordConfigOrigins } from '../config/config-origins.js';
import { createTestConfig } from '../testing/test-config.js';
import { BudgetShares, describeShortage } from './gather/budget-shares.js';
import { researchPhaseSteps, researchTaskSteps, stepsChosen } from './research-steps.js';

describe("research's step budget", () => {
  it('scales with sections x hops when nobody chose one, so a default run is not cut by steps', () => {
    const config = createTestConfig({ research: { maxHops: 3, writerShare: 0.25 } });
    expect(stepsChosen(config)).toBe(false);
    // 3 sections x 3 hops x 12 steps, and the writer's quarter on top.
    expect(researchTaskSteps(config, 3)).toBe(144);
    expect(researchPhaseSteps(config, 3, 144)).toBe(108);
    // The task's steps were made for the planner's most sections: the phase takes the plan's.
    expect(researchPhaseSteps(config, 3, 576)).toBe(108);
    // The default used to leave the phase 22 steps: 2 a hop for 3 sections of 3 hops.
    const shares = new BudgetShares(new Budget({ config: { ...config.budget, maxSteps: 108 } }), 3);
    for (const section of ['s1', 's2', 's3']) shares.register(section, 3);
    expect(shares.take('s1')).toMatchObject({ limits: { maxSteps: 12 } });
  });

  it('keeps a chosen budget (a flag, a variable, an override), even the deep search default', () => {
    const flagged = createTestConfig({ budget: { maxSteps: 30 } });
    recordConfigOrigins(flagged, {
      origins: new Map([['budget.maxSteps', '--max-steps']]),
      fileName: undefined,
    });
    expect(stepsChosen(flagged)).toBe(true);
    expect(researchTaskSteps(flagged, 3)).toBe(30);
    const overridden = createTestConfig({ budget: { maxSteps: 6 } });
    expect(researchTaskSteps(overridden, 3)).toBe(6);
    expect(researchPhaseSteps(overridden, 3, 6)).toBe(4);
  });

  it('names the budget that cannot pay for a hop and the flag that raises it', () => {
    const config = createTestConfig({ budget: { maxSteps: 6 } });
    const shares = new BudgetShares(new Budget({ config: { ...config.budget, maxSteps: 3 } }), 3);
    shares.register('s1', 3);
    const share = shares.take('s1');
    expect(share).toEqual({ short: 'steps', left: 3, needed: 4 });
    expect(describeShortage(share as Extract<typeof share, { short: unknown }>)).toBe(
      'the step budget leaves this hop 3 steps, a hop needs 4 steps: raise --max-steps',
    );
  });
});

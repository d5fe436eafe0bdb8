import { describe, expect, it } from 'vitest';
import type { LlmCallRecord } from '../providers/spec/llm-client.js';
import { Budget } from './budget.js';

const call = (tokens: number): LlmCallRecord => ({
  role: 'agent',
  model: 'm',
  promptTokens: tokens,
  completionTokens: 0,
  ms: 1,
  outcome: 'ok',
  estimated: false,
  repairs: 0,
});
const config = { maxSteps: 20, maxTokens: 10_000, maxTimeSeconds: 60, maxAttempts: 3 };

describe('budget tree', () => {
  it('a child draws from its parent: what it uses counts in both, what it reserves is not available', () => {
    const parent = new Budget({ config });
    const child = parent.child({ maxTokens: 4_000, maxSteps: 5 });
    expect(child.maxTokens).toBe(4_000);
    expect(parent.available()).toMatchObject({ tokens: 6_000, steps: 15 });
    child.addLlmCall(call(1_000));
    child.countStep();
    child.countSearch(2);
    expect(child.tokensUsed).toBe(1_000);
    expect(parent.tokensUsed).toBe(1_000);
    expect(parent.steps).toBe(1);
    expect(parent.usage().searchCalls).toBe(2);
    // Used 1,000 and still reserving 3,000 of the child's 4,000.
    expect(parent.available().tokens).toBe(6_000);
    child.release();
    parent.dispose();
  });

  it('gives back what a child did not use when it is released', () => {
    const parent = new Budget({ config });
    const child = parent.child({ maxTokens: 4_000 });
    child.addLlmCall(call(1_500));
    child.release();
    expect(parent.available().tokens).toBe(8_500);
    parent.dispose();
  });

  it('never gives a child more than its parent has left', () => {
    const parent = new Budget({ config });
    const first = parent.child({ maxTokens: 7_000 });
    const second = parent.child({ maxTokens: 7_000, maxSteps: 100 });
    expect(second.maxTokens).toBe(3_000);
    expect(second.maxSteps).toBeLessThanOrEqual(20);
    const third = parent.child();
    expect(third.maxTokens).toBe(0);
    expect(third.stopReason()).toBe('steps');
    for (const child of [first, second, third]) child.release();
    parent.dispose();
  });

  it("a child's deadlines fire when its parent's do", async () => {
    const parent = new Budget({ config: { ...config, maxTimeSeconds: 0.05 } });
    const child = parent.child({ maxTimeMs: 60_000 });
    expect(child.maxTimeMs).toBeLessThanOrEqual(50);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(child.hardSignal.aborted).toBe(true);
    expect(child.regularSignal.aborted).toBe(true);
    child.release();
    parent.dispose();
  });

  it('stops regular steps when tokens used or reserved reach the regular share', () => {
    const parent = new Budget({ config });
    const child = parent.child({ maxTokens: 9_000 });
    expect(parent.stopReason()).toBe('tokens');
    child.release();
    expect(parent.stopReason()).toBeUndefined();
    parent.dispose();
  });
});

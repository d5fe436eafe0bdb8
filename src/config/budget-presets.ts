import type { BudgetConfig } from './config-schema.js';

export const reasoningEfforts = ['low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof reasoningEfforts)[number];

/**
 * Budgets for a requested effort (the server's `reasoning_effort`). Low answers quickly from a
 * search or two; high keeps digging and accepts more rejected answers before it is forced.
 */
export const budgetPresets: Readonly<Record<ReasoningEffort, BudgetConfig>> = {
  low: { maxSteps: 8, maxTokens: 200_000, maxTimeSeconds: 120, maxAttempts: 1 },
  medium: { maxSteps: 20, maxTokens: 500_000, maxTimeSeconds: 300, maxAttempts: 2 },
  high: { maxSteps: 40, maxTokens: 2_000_000, maxTimeSeconds: 900, maxAttempts: 4 },
};

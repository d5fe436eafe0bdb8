import type { Budget } from '../../agent/budget.js';

/** Below this a deep search cannot search, read and answer: the hop is not started. */
export const minHopSteps = 4;
export const minHopTokens = 8_000;
const minHopMs = 5_000;

export interface HopLimits {
  maxTokens: number;
  maxSteps: number;
  maxTimeMs: number;
}

/** A budget the research phase shares between hops, as the stop message names it. */
export type HopBudget = 'steps' | 'tokens' | 'time';

/** A hop's share, or the budget too short to pay for one and what is left of it. */
export type HopShare = { limits: HopLimits } | { short: HopBudget; left: number; needed: number };

/** The flag that raises each budget: a stop message names it. */
export const budgetFlags: Readonly<Record<HopBudget, string>> = {
  steps: '--max-steps',
  tokens: '--max-tokens',
  time: '--max-time',
};

/** "the step budget leaves this hop 2 steps, a hop needs 4: raise --max-steps". */
export function describeShortage(share: Extract<HopShare, { short: HopBudget }>): string {
  const amount = (value: number) =>
    share.short === 'steps'
      ? `${value} step${value === 1 ? '' : 's'}`
      : share.short === 'tokens'
        ? `${Math.round(value / 1000)}k tokens`
        : `${Math.round(value / 1000)} s`;
  const name = { steps: 'step', tokens: 'token', time: 'time' }[share.short];
  return (
    `the ${name} budget leaves this hop ${amount(share.left)}, a hop needs ${amount(share.needed)}: ` +
    `raise ${budgetFlags[share.short]}`
  );
}

/**
 * Splits the research phase's budget fairly between the hops still to run. Each unfinished
 * section counts the hops it may still make; a hop gets what is left (less what running hops
 * hold) divided by the hops still waiting, so a section that finishes early — all covered, or
 * a hop that used less than its share — leaves more for the others. Time runs for all running
 * hops at once: a hop may take the time left times the concurrency over the hops waiting.
 */
export class BudgetShares {
  private readonly pool: Budget;
  private readonly concurrency: number;
  private readonly pending = new Map<string, number>();

  constructor(pool: Budget, concurrency: number) {
    this.pool = pool;
    this.concurrency = concurrency;
  }

  /** A section that may run up to `hops` hops. */
  register(section: string, hops: number): void {
    this.pending.set(section, hops);
  }

  /** The limits of the section's next hop, or the budget that cannot pay for one. */
  take(section: string): HopShare {
    const waiting = [...this.pending.values()].reduce((sum, hops) => sum + hops, 0);
    const left = this.pool.available();
    const units = Math.max(1, waiting);
    const limits: HopLimits = {
      maxTokens: Math.min(left.tokens, Math.max(minHopTokens, Math.floor(left.tokens / units))),
      maxSteps: Math.min(left.steps, Math.max(minHopSteps, Math.floor(left.steps / units))),
      maxTimeMs: Math.min(
        left.timeMs,
        Math.max(minHopMs, Math.floor((left.timeMs * Math.min(this.concurrency, units)) / units)),
      ),
    };
    const hops = this.pending.get(section) ?? 0;
    if (hops > 0) this.pending.set(section, hops - 1);
    if (limits.maxSteps < minHopSteps) return { short: 'steps', left: limits.maxSteps, needed: minHopSteps };
    if (limits.maxTokens < minHopTokens)
      return { short: 'tokens', left: limits.maxTokens, needed: minHopTokens };
    if (limits.maxTimeMs < minHopMs) return { short: 'time', left: limits.maxTimeMs, needed: minHopMs };
    return { limits };
  }

  /** The section is done: the hops it did not make are no longer waiting for a share. */
  finish(section: string): void {
    this.pending.delete(section);
  }
}

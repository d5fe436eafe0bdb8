import type { BudgetConfig, LlmRole } from '../config/config-schema.js';
import type { LlmCallRecord } from '../providers/spec/llm-client.js';
import type { BudgetReport, RoleUsage, StopReason, TimingReport, UsageReport } from './agent-types.js';

/** Share of tokens and time for regular steps; the rest is kept for the forced final answer. */
const regularShare = 0.85;

export interface BudgetOptions {
  config: BudgetConfig;
  now?: () => number;
}

/**
 * Tracks every budget and says when regular work must stop. Two deadlines: `regularSignal`
 * fires when regular steps must end (keeping time for the final answer), `hardSignal` when the
 * run must be over.
 */
export class Budget {
  readonly maxSteps: number;
  readonly maxTokens: number;
  readonly maxTimeMs: number;
  readonly maxAttempts: number;
  readonly regularSignal: AbortSignal;
  readonly hardSignal: AbortSignal;
  steps = 0;
  failedAttempts = 0;
  invalidOutputs = 0;
  exhausted: StopReason | null = null;
  finalAnswerForced = false;
  private readonly started: number;
  private readonly now: () => number;
  private readonly byRole: Partial<Record<LlmRole, RoleUsage>> = {};
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly times = { llm: 0, search: 0, read: 0 };
  private searchCalls = 0;
  private readCalls = 0;
  private parseFailures = 0;
  private repairs = 0;
  private failedCalls = 0;
  private estimated = false;

  constructor(options: BudgetOptions) {
    this.now = options.now ?? Date.now;
    this.started = this.now();
    this.maxSteps = options.config.maxSteps;
    this.maxTokens = options.config.maxTokens;
    this.maxTimeMs = Math.round(options.config.maxTimeSeconds * 1000);
    this.maxAttempts = options.config.maxAttempts;
    this.regularSignal = this.deadline(
      Math.round(this.maxTimeMs * regularShare),
      'regular steps are out of time',
    );
    this.hardSignal = this.deadline(this.maxTimeMs, 'the run is out of time');
  }

  /** Why regular steps must stop now, or undefined to go on. Sets `exhausted` when one ran out. */
  stopReason(): StopReason | undefined {
    let reason: StopReason | undefined;
    if (this.failedAttempts >= this.maxAttempts) reason = 'attempts';
    else if (this.steps >= this.maxSteps - 1) reason = 'steps';
    else if (this.tokensUsed >= this.maxTokens * regularShare) reason = 'tokens';
    else if (this.regularSignal.aborted) reason = 'time';
    else if (this.invalidOutputs >= 3) reason = 'invalid-output';
    if (reason) this.exhausted = reason;
    return reason;
  }

  /** One HTTP request to a model, whatever came of it: failed and re-asked requests count too. */
  addLlmCall(record: LlmCallRecord): void {
    const role: LlmRole = record.role;
    const current = this.byRole[role] ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0 };
    this.byRole[role] = {
      promptTokens: current.promptTokens + record.promptTokens,
      completionTokens: current.completionTokens + record.completionTokens,
      totalTokens: current.totalTokens + record.promptTokens + record.completionTokens,
      calls: current.calls + 1,
    };
    if (record.outcome === 'parse-failure') this.parseFailures++;
    if (record.outcome === 'error') this.failedCalls++;
    this.repairs += record.repairs;
    this.estimated ||= record.estimated;
  }

  countSearch(calls = 1): void {
    this.searchCalls += calls;
  }

  countRead(calls = 1): void {
    this.readCalls += calls;
  }

  /** Adds wall time spent waiting on a provider; phases run one at a time, so these add up. */
  addTime(kind: 'llm' | 'search' | 'read', ms: number): void {
    this.times[kind] += ms;
  }

  timing(): TimingReport {
    const totalMs = this.elapsedMs;
    const llmMs = Math.round(this.times.llm);
    const searchMs = Math.round(this.times.search);
    const readMs = Math.round(this.times.read);
    return { totalMs, llmMs, searchMs, readMs, ownMs: Math.max(0, totalMs - llmMs - searchMs - readMs) };
  }

  get tokensUsed(): number {
    return Object.values(this.byRole).reduce((sum, usage) => sum + (usage?.totalTokens ?? 0), 0);
  }

  get elapsedMs(): number {
    return this.now() - this.started;
  }

  usage(): UsageReport {
    const roles = Object.values(this.byRole);
    const sum = (pick: (usage: RoleUsage) => number) =>
      roles.reduce((total, usage) => total + pick(usage!), 0);
    return {
      promptTokens: sum((usage) => usage.promptTokens),
      completionTokens: sum((usage) => usage.completionTokens),
      totalTokens: sum((usage) => usage.totalTokens),
      byRole: structuredClone(this.byRole),
      llmCalls: sum((usage) => usage.calls),
      searchCalls: this.searchCalls,
      readCalls: this.readCalls,
      parseFailures: this.parseFailures,
      repairs: this.repairs,
      failedCalls: this.failedCalls,
      estimated: this.estimated,
    };
  }

  report(): BudgetReport {
    return {
      maxSteps: this.maxSteps,
      maxTokens: this.maxTokens,
      maxTimeMs: this.maxTimeMs,
      maxAttempts: this.maxAttempts,
      stepsUsed: this.steps,
      tokensUsed: this.tokensUsed,
      elapsedMs: this.elapsedMs,
      failedAttempts: this.failedAttempts,
      exhausted: this.exhausted,
      finalAnswerForced: this.finalAnswerForced,
    };
  }

  /** Clears the deadline timers; call when the run ends. */
  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }

  private deadline(ms: number, reason: string): AbortSignal {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(reason)), ms);
    timer.unref?.();
    this.timers.push(timer);
    return controller.signal;
  }
}

import type { BudgetConfig, LlmRole } from '../config/config-schema.js';
import { anySignal } from '../core/link-signals.js';
import type {
  BudgetReport,
  RoleUsage,
  StopReason,
  TimingReport,
  UsageReport,
} from '../events/deep-search-result.js';
import type { LlmCallRecord } from '../providers/spec/llm-client.js';

/** Share of tokens and time for regular steps; the rest is kept for the forced final answer. */
const regularShare = 0.85;

export interface BudgetOptions {
  config: BudgetConfig;
  now?: () => number;
  /** The budget this one draws from (see `child`). */
  parent?: Budget;
  /** What an earlier process of this run used (a checkpoint): counted, and its time taken off. */
  restore?: BudgetSnapshot;
}

/** The counters of a budget as plain JSON, for a checkpoint; the limits come from the config. */
export interface BudgetSnapshot {
  stepsUsed: number;
  elapsedMs: number;
  failedAttempts: number;
  llmAnswered: boolean;
  byRole: Partial<Record<LlmRole, RoleUsage>>;
  times: { llm: number; search: number; read: number };
  searchCalls: number;
  readCalls: number;
  parseFailures: number;
  repairs: number;
  failedCalls: number;
  estimated: boolean;
  firstLlmCallMs: number | null;
}

/** What a child budget asks for; each is capped by what its parent has left. */
export interface ChildBudgetLimits {
  maxSteps?: number;
  maxTokens?: number;
  maxTimeMs?: number;
  maxAttempts?: number;
}

/**
 * Tracks every budget and says when regular work must stop. Two deadlines: `regularSignal`
 * fires when regular steps must end (keeping time for the final answer), `hardSignal` when the
 * run must be over.
 *
 * Budgets form a tree: `child()` reserves part of what is left for a sub-run (a research
 * section); everything the child uses counts in its parent too, and `release()` gives back what
 * it did not use. A child never gets more than its parent has left, and ends when its parent does.
 */
export class Budget {
  readonly maxSteps: number;
  readonly maxTokens: number;
  readonly maxTimeMs: number;
  readonly maxAttempts: number;
  readonly regularSignal: AbortSignal;
  readonly hardSignal: AbortSignal;
  failedAttempts = 0;
  /** Whether any LLM call of this run has succeeded (a model that never answered is down). */
  llmAnswered = false;
  invalidOutputs = 0;
  exhausted: StopReason | null = null;
  finalAnswerForced = false;
  private readonly started: number;
  private readonly now: () => number;
  private readonly parent: Budget | undefined;
  private readonly children = new Set<Budget>();
  private stepsUsed = 0;
  private readonly byRole: Partial<Record<LlmRole, RoleUsage>> = {};
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly times = { llm: 0, search: 0, read: 0 };
  private readonly inFlight = { llm: 0, search: 0, read: 0 };
  private readonly busySince = { llm: 0, search: 0, read: 0 };
  private firstLlmCallMs: number | null = null;
  private firstAnswerTokenMs: number | null = null;
  private searchCalls = 0;
  private readCalls = 0;
  private parseFailures = 0;
  private repairs = 0;
  private failedCalls = 0;
  private estimated = false;

  constructor(options: BudgetOptions) {
    this.now = options.now ?? Date.now;
    this.parent = options.parent;
    this.started = this.now() - (options.restore?.elapsedMs ?? 0);
    this.maxSteps = options.config.maxSteps;
    this.maxTokens = options.config.maxTokens;
    this.maxTimeMs = Math.round(options.config.maxTimeSeconds * 1000);
    this.maxAttempts = options.config.maxAttempts;
    if (options.restore) this.restore(options.restore);
    const spent = this.elapsedMs;
    const regular = this.deadline(
      Math.round(this.maxTimeMs * regularShare) - spent,
      'regular steps are out of time',
    );
    const hard = this.deadline(this.maxTimeMs - spent, 'the run is out of time');
    this.regularSignal = anySignal(regular, this.parent?.regularSignal);
    this.hardSignal = anySignal(hard, this.parent?.hardSignal);
  }

  /** A budget for a sub-run, drawn from what this one has left; `release()` it when done. */
  child(limits: ChildBudgetLimits = {}): Budget {
    const left = this.available();
    const child = new Budget({
      config: {
        maxSteps: Math.min(limits.maxSteps ?? left.steps, left.steps),
        maxTokens: Math.min(limits.maxTokens ?? left.tokens, left.tokens),
        maxTimeSeconds: Math.min(limits.maxTimeMs ?? left.timeMs, left.timeMs) / 1000,
        maxAttempts: limits.maxAttempts ?? this.maxAttempts,
      },
      now: this.now,
      parent: this,
    });
    this.children.add(child);
    return child;
  }

  /** A child's run is over: what it did not use goes back to its parent. Clears its timers. */
  release(): void {
    this.parent?.children.delete(this);
    this.dispose();
  }

  /** What is left to give: the limits less what was used and what open children reserve. */
  available(): { steps: number; tokens: number; timeMs: number } {
    let steps = this.maxSteps - this.stepsUsed;
    let tokens = this.maxTokens - this.tokensUsed;
    for (const child of this.children) {
      steps -= Math.max(0, child.maxSteps - child.stepsUsed);
      tokens -= Math.max(0, child.maxTokens - child.tokensUsed);
    }
    return {
      steps: Math.max(0, steps),
      tokens: Math.max(0, tokens),
      timeMs: Math.max(0, this.maxTimeMs - this.elapsedMs),
    };
  }

  get steps(): number {
    return this.stepsUsed;
  }

  /** Counts one step of this run (and of every budget above it). */
  countStep(): void {
    this.stepsUsed++;
    this.parent?.countStep();
  }

  /** Why regular steps must stop now, or undefined to go on. Sets `exhausted` when one ran out. */
  stopReason(): StopReason | undefined {
    let reason: StopReason | undefined;
    if (this.failedAttempts >= this.maxAttempts) reason = 'attempts';
    else if (this.stepsUsed >= this.maxSteps - 1) reason = 'steps';
    else if (this.maxTokens - this.available().tokens >= this.maxTokens * regularShare) reason = 'tokens';
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
    this.parent?.addLlmCall(record);
  }

  countSearch(calls = 1): void {
    this.searchCalls += calls;
    this.parent?.countSearch(calls);
  }

  countRead(calls = 1): void {
    this.readCalls += calls;
    this.parent?.countRead(calls);
  }

  /**
   * Starts waiting on a provider; call the returned function when the wait is over. Time counts
   * while at least one call of that kind is in flight, so calls made together (here or in child
   * runs) count once: the time the run spent waiting, not the sum of the calls.
   */
  wait(kind: 'llm' | 'search' | 'read'): () => void {
    if (this.inFlight[kind]++ === 0) this.busySince[kind] = performance.now();
    const parentDone = this.parent?.wait(kind);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.inFlight[kind] === 0) this.times[kind] += performance.now() - this.busySince[kind];
      parentDone?.();
    };
  }

  /** Notes when the first LLM request starts (the setup before it is the agent's own overhead). */
  markLlmCall(): void {
    this.firstLlmCallMs ??= this.elapsedMs;
  }

  /** Notes when the final answer's first text is ready (time to first answer token). */
  markAnswerToken(): void {
    this.firstAnswerTokenMs ??= this.elapsedMs;
  }

  timing(): TimingReport {
    const totalMs = this.elapsedMs;
    const llmMs = Math.round(this.times.llm);
    const searchMs = Math.round(this.times.search);
    const readMs = Math.round(this.times.read);
    return {
      totalMs,
      llmMs,
      searchMs,
      readMs,
      ownMs: Math.max(0, totalMs - llmMs - searchMs - readMs),
      firstLlmCallMs: this.firstLlmCallMs,
      firstAnswerTokenMs: this.firstAnswerTokenMs,
    };
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
      stepsUsed: this.stepsUsed,
      tokensUsed: this.tokensUsed,
      elapsedMs: this.elapsedMs,
      failedAttempts: this.failedAttempts,
      exhausted: this.exhausted,
      finalAnswerForced: this.finalAnswerForced,
    };
  }

  snapshot(): BudgetSnapshot {
    return {
      stepsUsed: this.stepsUsed,
      elapsedMs: this.elapsedMs,
      failedAttempts: this.failedAttempts,
      llmAnswered: this.llmAnswered,
      byRole: structuredClone(this.byRole),
      times: { ...this.times },
      searchCalls: this.searchCalls,
      readCalls: this.readCalls,
      parseFailures: this.parseFailures,
      repairs: this.repairs,
      failedCalls: this.failedCalls,
      estimated: this.estimated,
      firstLlmCallMs: this.firstLlmCallMs,
    };
  }

  private restore(snapshot: BudgetSnapshot): void {
    this.stepsUsed = snapshot.stepsUsed;
    this.failedAttempts = snapshot.failedAttempts;
    this.llmAnswered = snapshot.llmAnswered;
    Object.assign(this.byRole, structuredClone(snapshot.byRole));
    Object.assign(this.times, snapshot.times);
    this.searchCalls = snapshot.searchCalls;
    this.readCalls = snapshot.readCalls;
    this.parseFailures = snapshot.parseFailures;
    this.repairs = snapshot.repairs;
    this.failedCalls = snapshot.failedCalls;
    this.estimated = snapshot.estimated;
    this.firstLlmCallMs = snapshot.firstLlmCallMs;
  }

  /** Clears the deadline timers; call when the run ends. */
  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }

  private deadline(ms: number, reason: string): AbortSignal {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(reason)), Math.max(0, ms));
    timer.unref?.();
    this.timers.push(timer);
    return controller.signal;
  }
}

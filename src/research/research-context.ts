import type { Budget, ChildBudgetLimits } from '../agent/budget.js';
import { type AgentInput, prepareRun } from '../agent/run-agent.js';
import type { CheckpointHook } from '../agent/run-checkpoint.js';
import type { RunContext } from '../agent/run-context.js';
import { runLoop } from '../agent/run-loop.js';
import { keepConfigOrigins } from '../config/config-origins.js';
import type { DeepSearchConfig } from '../config/config-schema.js';
import { anySignal } from '../core/link-signals.js';
import type { PartLabel } from '../events/agent-events.js';
import type { DeepSearchResult } from '../events/deep-search-result.js';
import type { EventBus } from '../events/event-bus.js';
import type { Persona, ResearchPlan } from '../events/research-result.js';
import { maxSections } from './plan/plan-markdown.js';
import {
  type ResearchCheckpoint,
  ResearchProgress,
  type ResearchRestore,
  taskRestore,
} from './research-checkpoint.js';
import { researchTaskSteps } from './research-steps.js';

export interface ResearchInput extends Omit<AgentInput, 'question' | 'history' | 'restore' | 'onCheckpoint'> {
  topic: string;
  /**
   * Goes on from a checkpoint of this task (same runId): its plan, the sections already gathered,
   * the shared knowledge, the budget used and the event sequence.
   */
  restore?: ResearchRestore;
  /** Called at each phase's end with the task's progress; the next phase starts once it settles. */
  onCheckpoint?: CheckpointHook<ResearchCheckpoint>;
  /** A plan a person edited (`--outline FILE`): planning is skipped and this plan is followed. */
  plan?: ResearchPlan;
  /** Warnings to report when the task starts (e.g. the model's window is smaller than configured). */
  notices?: readonly string[];
}

/** A deep search run as one part of the research task. */
export interface PartOptions {
  /** The part's child budget; capped by what the task (or `budget`) has left. */
  limits?: ChildBudgetLimits;
  /** The budget the part draws from instead of the task's (the research phase's share). */
  budget?: Budget;
  /** Questions queued before the part's own question (a section's questions, the gaps of a hop). */
  subQuestions?: readonly string[];
  signal?: AbortSignal;
  /** What the part is for, told to observers in its run-start event. */
  part?: PartLabel;
}

/**
 * What every stage of research uses. `task` is a run context for the whole task: its budget is
 * the task's (every part draws a child from it), its state holds the knowledge all parts share
 * (a page is read once per task), and `callLlm(task, ...)` / `verifyReferences(task.state, ...)`
 * work on it as in deep search.
 */
export interface ResearchContext {
  task: RunContext;
  events: EventBus;
  input: ResearchInput;
  /** What is done so far (restored or not); each phase's end checkpoints it. */
  progress: ResearchProgress;
  /** A progress line by persona. */
  say(persona: Persona, message: string, section?: string): void;
  /** Runs one deep search as a part of the task (child budget, shared knowledge, events forwarded). */
  runPart(question: string, options?: PartOptions): Promise<DeepSearchResult>;
}

export function createResearchContext(input: ResearchInput): ResearchContext {
  const { topic, plan: _plan, notices: _notices, restore, onCheckpoint, ...providers } = input;
  // Research's own step budget unless one was chosen: the sections are known from a given or
  // restored outline; a planned one has at most maxSections (the phase's pool is cut to the plan).
  const sections = input.plan?.sections.length ?? restore?.checkpoint.plan.sections.length ?? maxSections;
  const config = withTaskSteps(providers.config, researchTaskSteps(providers.config, sections));
  const task = prepareRun({
    ...providers,
    config,
    question: topic,
    restore: restore && taskRestore(restore),
  });
  const { context, events } = task;
  const progress = new ResearchProgress({ task: context, onCheckpoint, restored: restore?.checkpoint });
  // Parts report through the task's bus (with their own run ids), not to the caller directly.
  const { onEvent: _onEvent, observers: _observers, runId: _runId, ...partInput } = providers;
  return {
    task: context,
    events,
    input,
    progress,
    say: (persona, message, section) =>
      context.emit({ type: 'persona', persona, message, ...(section ? { section } : {}) }),
    runPart: async (question, options = {}) => {
      const part = prepareRun(
        { ...partInput, question, signal: anySignal(input.signal, options.signal) },
        {
          budget: options.budget ?? context.budget,
          childLimits: options.limits,
          knowledge: context.state,
          events,
          part: options.part,
        },
      );
      if (options.subQuestions?.length) part.context.state.gaps.add(options.subQuestions);
      return runLoop(part);
    },
  };
}

function withTaskSteps(config: DeepSearchConfig, maxSteps: number): DeepSearchConfig {
  if (maxSteps === config.budget.maxSteps) return config;
  return keepConfigOrigins({ ...config, budget: { ...config.budget, maxSteps } }, config);
}

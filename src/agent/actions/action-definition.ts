import type * as z from 'zod';
import type { KnowledgeItem } from '../../events/deep-search-result.js';
import type { EvaluationCriterion } from '../evaluation/criteria.js';
import type { RunContext } from '../run-context.js';
import type { AgentState } from '../state/agent-state.js';
import type { FinalAnswer } from '../steps/final-answer.js';

/** Caps the step schema puts on list fields; from the config, the same every step of a run. */
export interface ActionLimits {
  maxQueries: number;
  maxUrls: number;
  maxGapQuestions: number;
  maxReferences: number;
}

/** What an action's gate may look at. */
export interface ActionGate {
  state: AgentState;
  step: number;
  noDirectAnswer: boolean;
  maxPendingQuestions: number;
  /** The coding action is switched on (config.sandbox.enabled) and the run has a code runner. */
  codingEnabled: boolean;
}

export interface ActionRunInput<Payload> {
  /** The question this step works on (a sub-question or the original). */
  question: string;
  payload: Payload;
  think: string;
  /** URLs by their source number (shown in <url-list> and <knowledge>): entry n - 1 is source n. */
  urlList: readonly string[];
  /** The unread URLs shown in <url-list> this step, best first (empty when visit was not offered). */
  offeredUrls: readonly string[];
  /** Criteria for the original question, chosen once and cached by the loop. */
  criteria: () => Promise<EvaluationCriterion[]>;
}

/**
 * What a step did, for the loop to apply: the diary line, whether this action is switched off for
 * the next step (it was fruitless), knowledge learned, and the final answer when the run is done.
 * Collections that steps fill as they go (search records, URL candidates, pages read) are written
 * through AgentState's own stores, because later work in the same step reads them.
 */
export interface StepOutcome {
  note: string;
  disableNext?: boolean;
  /**
   * Set when the step did nothing new (queries all searched before, pages all read before): why,
   * in a few plain words for the person following the run. The loop counts such steps.
   */
  noProgress?: string;
  knowledge?: KnowledgeItem[];
  final?: FinalAnswer;
}

/**
 * An agent action as one unit: its name, the payload schema, the text that explains it in the
 * system prompt, when it is allowed, and what it does. The registry derives the step schema, the
 * prompt's action list and the step type from these; nothing else names actions.
 */
export interface ActionDefinition<Name extends string = string, Payload = unknown> {
  readonly name: Name;
  schema(limits: ActionLimits): z.ZodType<Payload>;
  /** The action's section of the system prompt. */
  prompt(input: { limits: ActionLimits; state: AgentState }): string;
  /**
   * Its fields, one line each, and one example payload, shown in every mode: a server that
   * constrains decoding to the JSON schema never shows the schema (or its descriptions) to the model.
   */
  guide(limits: ActionLimits): { fields: string[]; example: Payload };
  /** Whether the action makes sense now (before the loop's one-step switches are applied). */
  isAllowed(gate: ActionGate): boolean;
  run(context: RunContext, input: ActionRunInput<Payload>): Promise<StepOutcome>;
}

/** Identity, typed: keeps the literal name and the payload type for the registry. */
export function defineAction<const Name extends string, Payload>(
  definition: ActionDefinition<Name, Payload>,
): ActionDefinition<Name, Payload> {
  return definition;
}

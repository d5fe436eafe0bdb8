import type { ActionName } from './agent-types.js';
import type { AgentState } from './state/agent-state.js';

export interface AllowedActionsInput {
  state: AgentState;
  step: number;
  noDirectAnswer: boolean;
  maxPendingQuestions: number;
}

/**
 * Which actions the next step may take. Gating keeps small models on a productive path:
 * no visit without unread URLs, no answer right after a rejection, no reflect when the queue is
 * long, and whatever was fruitless last step is off for one step.
 */
export function allowedActions(input: AllowedActionsInput): ActionName[] {
  const { state } = input;
  const allowed: ActionName[] = [];
  if (!state.disabled.has('search')) allowed.push('search');
  const unread = state.urls.candidates(state.visited).length;
  if (unread > 0 && !state.disabled.has('visit')) allowed.push('visit');
  if (!state.disabled.has('reflect') && state.gaps.size < input.maxPendingQuestions) allowed.push('reflect');
  const nothingKnown = state.knowledge.length === 0 && state.searches.length === 0;
  const directBlocked = input.noDirectAnswer && nothingKnown;
  if (!state.disabled.has('answer') && !directBlocked) allowed.push('answer');
  // Never leave the model without a move: answering is always possible as a last resort.
  return allowed.length > 0 ? allowed : ['answer'];
}

import type { LlmRole } from '../../config/config-schema.js';

/** Tokens kept free for the reply out of the context window. */
export function outputReserve(contextTokens: number): number {
  return Math.min(8192, Math.max(1024, Math.floor(contextTokens * 0.2)));
}

/**
 * Longest reply each role needs: the agent and the final answer write answers with references;
 * judges, the analyst and the rewriter write a few short fields. Room for a reasoning model's
 * think block is included.
 */
export const roleOutputCaps: Readonly<Record<LlmRole, number>> = {
  agent: 4096,
  beast: 4096,
  evaluator: 2048,
  analyzer: 2048,
  rewriter: 2048,
  // Research: a plan with its data points, a coverage judgement, a report section.
  planner: 4096,
  librarian: 2048,
  writer: 8192,
  // Eval: a one-sentence rationale and a grade.
  judge: 2048,
};

/**
 * The output limit sent when the config sets none. Without one a server may reserve its whole
 * default (or let a looping small model write until the window is full); with it, the reply
 * always fits the part of the window the prompt builder left free.
 */
export function defaultMaxOutputTokens(role: LlmRole, contextTokens: number): number {
  return Math.min(roleOutputCaps[role], outputReserve(contextTokens));
}

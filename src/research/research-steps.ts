import { defaultMaxSteps } from '../config/agent-config-schema.js';
import { settingOrigin } from '../config/config-origins.js';
import type { DeepSearchConfig } from '../config/config-schema.js';

/**
 * Steps one hop of a section may take when nobody chose a step budget: a deep search of a
 * section's few questions searches, reads, answers and is judged in 4 to 10 steps.
 */
export const stepsPerHop = 12;

/**
 * Whether someone chose budget.maxSteps (a flag, a variable, the config file, a request's
 * override, a reasoning-effort preset): research then keeps it as the whole task's steps. A
 * deep search's default (30) is not research's: cut between sections, hops and the writer, it
 * left a hop 2 steps, and a default run stopped after one hop with most of its tokens and time
 * unused.
 */
export function stepsChosen(config: DeepSearchConfig): boolean {
  return settingOrigin(config, 'budget.maxSteps') !== undefined || config.budget.maxSteps !== defaultMaxSteps;
}

/**
 * The task's step budget: the one chosen, else enough for `sections` sections' every hop at
 * stepsPerHop, plus the writer's share, so tokens or time (what a run costs) stop it first.
 */
export function researchTaskSteps(config: DeepSearchConfig, sections: number): number {
  if (stepsChosen(config)) return config.budget.maxSteps;
  const research = Math.max(1, sections) * config.research.maxHops * stepsPerHop;
  return Math.max(defaultMaxSteps, Math.ceil(research / (1 - config.research.writerShare)));
}

/** The steps the research phase may use for `sections` open sections, out of `left` it may take. */
export function researchPhaseSteps(config: DeepSearchConfig, sections: number, left: number): number {
  const share = Math.max(1, Math.floor(left * (1 - config.research.writerShare)));
  if (stepsChosen(config)) return share;
  return Math.min(share, Math.max(1, sections) * config.research.maxHops * stepsPerHop);
}

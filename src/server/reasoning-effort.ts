import * as z from 'zod';
import { budgetPresets } from '../config/budget-presets.js';
import type { BudgetConfig } from '../config/config-schema.js';

/** Every effort OpenAI's clients send (chat `reasoning_effort`, Responses `reasoning.effort`). */
export const requestEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;
export type RequestEffort = (typeof requestEfforts)[number];

/** Read in any case: UIs send `High` or `LOW` as often as `high`. */
export const requestEffortSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.toLowerCase() : value),
  z.enum(requestEfforts),
);

/**
 * The budget preset an effort maps onto. A deep search cannot think less than its lowest preset
 * (none and minimal run it) nor more than its highest (xhigh).
 */
export function presetForEffort(effort: RequestEffort): BudgetConfig {
  if (effort === 'none' || effort === 'minimal') return budgetPresets.low;
  if (effort === 'xhigh') return budgetPresets.high;
  return budgetPresets[effort];
}

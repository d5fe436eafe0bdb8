import * as z from 'zod';
import { setting } from './setting.js';

/** A deep search's steps when nobody chose them; research scales its own (research/research-steps.ts). */
export const defaultMaxSteps = 30;

/** What one run may spend; past any of them the final answer is forced ("beast mode"). */
export const budgetConfigSchema = z
  .object({
    maxSteps: setting(z.number().int().min(1).default(defaultMaxSteps), {
      env: 'DEEPSEARCH_MAX_STEPS',
      flag: 'max-steps',
      description:
        "agent steps, the forced final answer included (research, when unset: sections x hops x 12 and the writer's share)",
    }),
    maxTokens: setting(z.number().int().min(1000).default(1_000_000), {
      env: 'DEEPSEARCH_MAX_TOKENS',
      flag: 'max-tokens',
      description: 'LLM tokens for the whole run',
    }),
    maxTimeSeconds: setting(z.number().positive().default(600), {
      env: 'DEEPSEARCH_MAX_TIME',
      flag: 'max-time',
      description: 'wall time for the whole run in seconds',
    }),
    maxAttempts: setting(z.number().int().min(1).default(3), {
      env: 'DEEPSEARCH_MAX_ATTEMPTS',
      flag: 'max-attempts',
      description: 'rejected answers before the final answer is forced',
    }),
  })
  .strict();

export const agentConfigSchema = z
  .object({
    maxQueriesPerStep: setting(z.number().int().min(1).max(20).default(5), {
      description: 'search queries one step may run',
    }),
    maxUrlsPerStep: setting(z.number().int().min(1).max(20).default(4), {
      description: 'pages one visit step may read',
    }),
    // Even for trivial questions, the step-1 answer without search is refused.
    noDirectAnswer: setting(z.boolean().default(false), {
      env: 'DEEPSEARCH_NO_DIRECT_ANSWER',
      flag: 'no-direct-answer',
      description: 'always search before answering, even trivial questions',
    }),
    language: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_LANGUAGE',
      flag: 'language',
      description: 'answer language (default: the language of the question)',
    }),
  })
  .strict();

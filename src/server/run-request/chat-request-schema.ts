import * as z from 'zod';
import { isSinceValue, sinceHelp } from '../../config/time-scope.js';
import { requestEffortSchema } from './reasoning-effort.js';

// Any part may carry text (text, input_text, output_text...); what is not a string is skipped.
const contentPart = z.looseObject({ type: z.string(), text: z.unknown().optional() });

export const chatMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
  name: z.string().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

const hostname = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[a-z0-9.-]+$/i, 'must be a host name such as en.wikipedia.org');
const hostnames = z.array(hostname).max(100);

const responseFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  // The AI SDK's structured output with @ai-sdk/openai-compatible, and many other clients.
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -'),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);

/**
 * Chat Completions as OpenAI defines it, plus deepsearch's own options. Fields clients commonly
 * send that mean nothing to a deep search (temperature, max_tokens, user...) are accepted and
 * ignored, as a model server would; the ones read here are validated strictly.
 */
export const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1, 'must contain at least one message'),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  n: z.literal(1, 'only one choice is produced').nullable().optional(),
  response_format: responseFormatSchema.nullable().optional(),
  reasoning_effort: requestEffortSchema.nullable().optional(),
  /** Tools are not run here; only a choice that forces one is refused (run-request.ts). */
  tool_choice: z
    .union([z.string(), z.looseObject({ type: z.string() })])
    .nullable()
    .optional(),
  /** `direct`: one plain LLM call, no search (as the model `deepsearch-direct`). */
  mode: z.enum(['search', 'direct']).optional(),
  budget_tokens: z.number().int().min(1000).max(10_000_000).optional(),
  max_steps: z.number().int().min(1).max(100).optional(),
  max_attempts: z.number().int().min(1).max(10).optional(),
  no_direct_answer: z.boolean().optional(),
  boost_hostnames: hostnames.optional(),
  bad_hostnames: hostnames.optional(),
  only_hostnames: hostnames.optional(),
  /** Only pages from then on (as --since): a date or a duration back from now. */
  since: z.string().max(40).refine(isSinceValue, `must be ${sinceHelp}`).optional(),
  search_provider: z.string().min(1).max(64).optional(),
  language: z.string().min(1).max(40).optional(),
  /** Progress inside <think>…</think> in `content` instead of `reasoning_content`. */
  think_tags: z.boolean().optional(),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;

import { z } from 'zod';
import type { ActionName } from './agent-types.js';

export interface ActionLimits {
  maxQueries: number;
  maxUrls: number;
  maxGapQuestions: number;
  maxReferences: number;
}

const referenceSchema = z.object({
  url: z.string().min(1).describe('URL of the source, exactly as given in <knowledge>'),
  quote: z
    .string()
    .min(1)
    .describe(
      'An exact, word-for-word quote from that source that supports the claim; copy, never paraphrase',
    ),
});

export const answerSchema = z.object({
  text: z
    .string()
    .min(1)
    .describe(
      'The final answer in markdown: short, definitive, no hedging. Put footnote markers [^1], [^2] after the ' +
        'claims they support; [^n] refers to the n-th entry of references.',
    ),
  references: z.array(referenceSchema).describe('Sources for the claims, in footnote order'),
});
export type AnswerPayload = z.infer<typeof answerSchema>;

function actionFields(limits: ActionLimits) {
  return {
    search: z.object({
      queries: z
        .array(z.string().min(1))
        .min(1)
        .max(limits.maxQueries)
        .describe(
          `Up to ${limits.maxQueries} short keyword queries, each about a different aspect; not yet tried`,
        ),
    }),
    visit: z.object({
      targets: z
        .array(z.string().min(1))
        .min(1)
        .max(limits.maxUrls)
        .describe(`Up to ${limits.maxUrls} URLs to read, or their numbers in <url-list>`),
    }),
    reflect: z.object({
      questions: z
        .array(z.string().min(1))
        .min(1)
        .max(limits.maxGapQuestions)
        .describe('Sub-questions that must be answered first; each self-contained and searchable'),
    }),
    answer: answerSchema.extend({
      references: answerSchema.shape.references.max(limits.maxReferences),
    }),
  } as const;
}

/**
 * The step schema for the allowed actions only: `think`, `action`, and one object per allowed
 * action, of which the chosen one must be filled.
 */
export function createActionSchema(allowed: readonly ActionName[], limits: ActionLimits) {
  // The same few schemas recur every step; reusing the object lets its JSON schema be converted once.
  const key = `${allowed.join(',')}|${limits.maxQueries}|${limits.maxUrls}|${limits.maxGapQuestions}|${limits.maxReferences}`;
  let schema = actionSchemas.get(key);
  if (!schema) {
    schema = buildActionSchema(allowed, limits);
    actionSchemas.set(key, schema);
  }
  return schema;
}

const actionSchemas = new Map<string, ReturnType<typeof buildActionSchema>>();

function buildActionSchema(allowed: readonly ActionName[], limits: ActionLimits) {
  const fields = actionFields(limits);
  const shape: Record<string, z.ZodType> = {
    think: z
      .string()
      .describe(
        'One to three sentences: what you know, what is missing, why this action. Language of the question.',
      ),
    action: z.enum(allowed as [ActionName, ...ActionName[]]).describe(`One of: ${allowed.join(', ')}`),
  };
  for (const name of allowed) {
    shape[name] = fields[name].optional().describe(`Fill only when action is "${name}"`);
  }
  return z.object(shape).superRefine((value, context) => {
    const action = value.action as ActionName;
    if (value[action] === undefined) {
      context.addIssue({
        code: 'custom',
        path: [action],
        message: `action is "${action}" so the "${action}" object must be filled`,
      });
    }
  });
}

export type AgentStep =
  | { think: string; action: 'search'; search: { queries: string[] } }
  | { think: string; action: 'visit'; visit: { targets: string[] } }
  | { think: string; action: 'reflect'; reflect: { questions: string[] } }
  | { think: string; action: 'answer'; answer: AnswerPayload };

/** Narrows a validated step object to its action's payload. */
export function toAgentStep(value: Record<string, unknown>): AgentStep {
  return value as unknown as AgentStep;
}

export const finalAnswerSchema = z.object({
  think: z.string().describe('One or two sentences on what the answer rests on and what is uncertain'),
  answer: answerSchema,
});
export type FinalAnswerStep = z.infer<typeof finalAnswerSchema>;

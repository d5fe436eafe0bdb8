import * as z from 'zod';
import { runReflectStep } from '../steps/reflect-step.js';
import { defineAction } from './action-definition.js';

export const reflectAction = defineAction({
  name: 'reflect',
  schema: (limits) =>
    z.object({
      questions: z
        .array(z.string().min(1).max(300))
        .min(1)
        .max(limits.maxGapQuestions)
        .describe('Sub-questions that must be answered first; each self-contained and searchable'),
    }),
  prompt: () => `<action-reflect>
Work out what is missing: list the sub-questions that must be answered before the question can be answered.
Each must be specific, self-contained, searchable, and not already asked. Use this for multi-part questions
and for questions that need a chain of facts (find A, then use A to find B).
</action-reflect>`,
  guide: (limits) => ({
    fields: [
      `questions: a list of 1 to ${limits.maxGapQuestions} sub-questions, each complete on its own (names, not "it" or "he")`,
    ],
    example: { questions: ['Which film won Best Picture at the 2020 Academy Awards?'] },
  }),
  isAllowed: ({ state, maxPendingQuestions }) => state.gaps.size < maxPendingQuestions,
  run: async (context, { question, payload }) =>
    runReflectStep(context, { question, questions: payload.questions }),
});

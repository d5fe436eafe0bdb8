import * as z from 'zod';
import { answerExample, answerSchema } from './answer-action.js';

/** Beast mode's reply: no choice of action, only the answer. */
export const finalAnswerSchema = z.object({
  think: z
    .string()
    .max(800)
    .describe('One or two sentences on what the answer rests on and what is uncertain'),
  answer: answerSchema,
});
export type FinalAnswerStep = z.infer<typeof finalAnswerSchema>;

export const finalAnswerExample: FinalAnswerStep = {
  think: 'The film page names the director; the premiere year is from the same page.',
  answer: answerExample,
};

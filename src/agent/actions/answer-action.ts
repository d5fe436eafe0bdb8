import * as z from 'zod';
import { runAnswerStep } from '../steps/answer-step.js';
import { defineAction } from './action-definition.js';

/**
 * Caps on the answer's free text, within the agent's and the final answer's output limit (4,096
 * tokens) even together: think 800 + text 5,000 + 10 references of 600 is under 12,000 characters.
 * A quote asked for as 25 words gets room for twice that; a copied URL in place of a number fits.
 */
const maxAnswerChars = 5000;
const maxQuoteChars = 400;
const maxSourceChars = 200;

/**
 * A citation by source number (shown as n="3" / [3] in the prompt); the code fills in the URL.
 * A copied URL is still accepted: small models copy URLs even when asked for numbers.
 */
const referenceSchema = z.object({
  source: z
    .union([z.number().int().min(1).max(10_000), z.string().min(1).max(maxSourceChars)])
    .describe('The number of the source in <knowledge> or <url-list>, e.g. 3'),
  quote: z
    .string()
    .min(1)
    .max(maxQuoteChars)
    .describe(
      'At most 25 words copied word for word from that source, supporting the claim; never paraphrase',
    ),
});

/** The answer payload; the forced final answer uses it too. */
export const answerSchema = z.object({
  text: z
    .string()
    .min(1)
    .max(maxAnswerChars)
    .describe(
      'The final answer in markdown: short, definitive, no hedging. Put footnote markers [^1], [^2] after the ' +
        'claims they support; [^n] refers to the n-th entry of references.',
    ),
  // The agent's step narrows this to its limits (ActionLimits.maxReferences).
  references: z.array(referenceSchema).max(10).describe('Sources for the claims, in footnote order'),
});
export type AnswerPayload = z.infer<typeof answerSchema>;

export const answerExample: AnswerPayload = {
  text: 'Bong Joon-ho directed Parasite[^1].',
  references: [
    {
      source: 3,
      quote: 'Parasite is a 2019 South Korean black comedy thriller film directed by Bong Joon-ho',
    },
  ],
};

export const answerAction = defineAction({
  name: 'answer',
  schema: (limits): z.ZodType<AnswerPayload> =>
    answerSchema.extend({ references: answerSchema.shape.references.max(limits.maxReferences) }),
  prompt: () => `<action-answer>
Answer when <knowledge> supports an answer. Lead with the answer itself; be short and definitive, no hedging.
Put a footnote marker [^1], [^2] after each claim; references[n-1] gives that claim's source by its number
(n="3" or [3]) and a quote of at most 25 words copied word for word from the text shown for that source.
Never cite a source that is not shown.
Answer directly with no references only arithmetic, greetings and unit conversions. Anything naming a person,
place, date, number or event: search first; an answer from memory is checked by strict judges.
For facts that change over time (who holds a role, prices, versions, counts, rankings, records), write
"as of <date>" using the date shown for the source (date="..." in <knowledge>) or a date the source states.
When <question> is a sub-question of <original-question>, answer only the sub-question.
</action-answer>`,
  guide: (limits) => ({
    fields: [
      'text: the answer in markdown, short and definitive, with a footnote marker [^1], [^2] after each claim',
      `references: a list of up to ${limits.maxReferences} objects {source, quote}, in footnote order: the source's number (n="3" or [3] in the prompt) and a quote of at most 25 words copied word for word from its text`,
    ],
    example: answerExample,
  }),
  isAllowed: ({ state, noDirectAnswer }) => {
    const nothingKnown = state.knowledge.length === 0 && state.searches.length === 0;
    return !(noDirectAnswer && nothingKnown);
  },
  run: (context, { question, payload, criteria }) => runAnswerStep(context, { question, payload, criteria }),
});

import * as z from 'zod';
import { runCodingStep } from '../steps/coding-step.js';
import { defineAction } from './action-definition.js';

// Within the agent's output limit (4,096 tokens) with its think; longer code could not be written whole.
const maxCodeChars = 10_000;

export const codingAction = defineAction({
  name: 'coding',
  schema: () =>
    z.object({
      code: z
        .string()
        .min(1)
        .max(maxCodeChars)
        .describe(
          'JavaScript: the body of an async function over the global `input`; end with `return <result>`',
        ),
      purpose: z.string().max(300).optional().describe('What the code computes, in one sentence'),
    }),
  prompt: () => `<action-coding>
Compute instead of estimating: date differences, sums, averages, counts or rankings over a table read from a page,
unit conversions. Write JavaScript, the body of an async function that ends with \`return <result>\` (JSON data or
a string). The global \`input\` holds what was gathered: input.question, input.knowledge [{question, answer, urls}]
and input.pages [{url, title, tables: [markdown tables], text}]. Parse the values from input; do not retype them.
There is no network, file, module or timer, and a few seconds of CPU. The result is added to the knowledge; cite the
pages its data came from when you answer.
</action-coding>`,
  guide: () => ({
    fields: [
      'code: JavaScript, the body of an async function over the global `input`, ending with `return <result>`',
      'purpose: what the code computes, in one sentence (optional)',
    ],
    example: {
      code: "const table = input.pages[0].tables[0].split('\\n').slice(2);\nreturn table.reduce((sum, row) => sum + Number(row.split('|')[2]), 0);",
      purpose: 'Sum the second column of the first table',
    },
  }),
  // Code computes over what was gathered: nothing to compute on before a page is read or a
  // sub-question answered.
  isAllowed: ({ state, codingEnabled }) =>
    codingEnabled &&
    (state.pages.all().length > 0 ||
      state.knowledge.some((item) => item.type === 'qa' || item.type === 'coding')),
  run: (context, { question, payload }) =>
    runCodingStep(context, { question, code: payload.code, purpose: payload.purpose }),
});

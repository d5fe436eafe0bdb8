import * as z from 'zod';
import { runSearchStep } from '../steps/search-step.js';
import { defineAction } from './action-definition.js';

export const searchAction = defineAction({
  name: 'search',
  schema: (limits) =>
    z.object({
      queries: z
        .array(z.string().min(1).max(200))
        .min(1)
        .max(limits.maxQueries)
        .describe(
          `Up to ${limits.maxQueries} short keyword queries, each about a different aspect; not yet tried`,
        ),
    }),
  prompt: ({ limits }) => `<action-search>
Search the web for what you still need. Write up to ${limits.maxQueries} short keyword queries (2-6 words), not sentences.
Each query targets one missing fact; use names, dates and the words a page holding the answer would use.
Use another language when the best sources are likely written in it. Never repeat a query listed in <context>.
</action-search>`,
  guide: (limits) => ({
    fields: [
      `queries: a list of 1 to ${limits.maxQueries} short keyword queries (2-6 words each), none tried before`,
    ],
    example: { queries: ['Parasite 2019 premiere date', "Cannes 2019 Palme d'Or"] },
  }),
  isAllowed: () => true,
  run: (context, { question, payload, offeredUrls }) =>
    runSearchStep(context, { question, queries: payload.queries, offeredUrls }),
});

import * as z from 'zod';
import { runVisitStep } from '../steps/visit-step.js';
import { defineAction } from './action-definition.js';

export const visitAction = defineAction({
  name: 'visit',
  schema: (limits) =>
    z.object({
      targets: z
        .array(z.string().min(1).max(500))
        .min(1)
        .max(limits.maxUrls)
        .describe(`Up to ${limits.maxUrls} URLs to read, or their numbers in <url-list>`),
    }),
  prompt: ({ limits }) => `<action-visit>
Read full pages to get details and exact quotes. Choose up to ${limits.maxUrls} URLs from <url-list> (higher weight means
more likely relevant) or URLs written in the question. You may give their numbers from the list.
</action-visit>`,
  guide: (limits) => ({
    fields: [
      `targets: a list of 1 to ${limits.maxUrls} URLs copied from <url-list> or the question, or their numbers in <url-list> ("1", "3")`,
    ],
    example: { targets: ['1', '3'] },
  }),
  isAllowed: ({ state }) => state.urls.candidates(state.visited).length > 0,
  run: (context, { question, payload, urlList, offeredUrls }) =>
    runVisitStep(context, { question, targets: payload.targets, urlList, offeredUrls }),
});

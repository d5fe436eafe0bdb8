import { passingEvaluation } from './passing-evaluation.js';

/** A fake-LLM reply: the object as the message content, with some token usage. */
export function tideReply(object: unknown) {
  return { content: JSON.stringify(object), usage: { prompt_tokens: 100, completion_tokens: 20 } };
}

/**
 * Fake-LLM routes of an agent that searches "Brest tides", reads `pageUrl` and answers with a quote
 * that must be on that page ("High tide at Brest is at 12:04 today"); the evaluator passes it.
 */
export function tideAgentRoutes(pageUrl: string) {
  return {
    agent_action: [
      tideReply({ think: 'Search.', step: { action: 'search', search: { queries: ['Brest tides'] } } }),
      tideReply({ think: 'Read.', step: { action: 'visit', visit: { targets: [pageUrl] } } }),
      tideReply({
        think: 'Found.',
        step: {
          action: 'answer',
          answer: {
            text: 'High tide at Brest is at 12:04 today[^1].',
            references: [{ url: pageUrl, quote: 'High tide at Brest is at 12:04 today' }],
          },
        },
      }),
    ],
    ...passingEvaluation(tideReply),
  };
}

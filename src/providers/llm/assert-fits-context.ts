import { InputError } from '../../core/errors/index.js';
import { estimateTokens } from '../../platform/llm-context/estimate-tokens.js';

export interface RunInput {
  question: string;
  history?: ReadonlyArray<{ question: string; answer: string }>;
  /** The LLM's prompt budget per call (llm.contextTokens). */
  contextTokens: number;
}

/**
 * Refuses, before any LLM call, a question (or conversation) that cannot fit the prompt budget.
 * The question goes whole into every prompt next to the instructions, the knowledge and the
 * diary, so it may take a quarter of the budget; with the earlier turns, half. Beyond that the
 * run could only send oversized requests or cut the question, and a person should shorten it.
 */
export function assertFitsContext(input: RunInput): void {
  const questionTokens = estimateTokens(input.question);
  const questionLimit = Math.floor(input.contextTokens / 4);
  if (questionTokens > questionLimit) {
    throw new InputError(
      `the question is too long: about ${questionTokens} tokens, at most ${questionLimit} fit the LLM's ` +
        `prompt budget of ${input.contextTokens} tokens; shorten it (or raise llm.contextTokens for a larger model)`,
      { param: 'messages', code: 'context_length_exceeded' },
    );
  }
  let total = questionTokens;
  for (const turn of input.history ?? [])
    total += estimateTokens(turn.question) + estimateTokens(turn.answer);
  const conversationLimit = Math.floor(input.contextTokens / 2);
  if (total > conversationLimit) {
    throw new InputError(
      `the conversation is too long: about ${total} tokens, at most ${conversationLimit} fit the LLM's ` +
        `prompt budget of ${input.contextTokens} tokens; start a new conversation or drop earlier messages`,
      { param: 'messages', code: 'context_length_exceeded' },
    );
  }
}

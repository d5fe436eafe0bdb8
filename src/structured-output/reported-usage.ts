import { estimateTokens } from '../platform/llm-context/estimate-tokens.js';
import type { TokenUsage } from './structured-output-request.js';

/** Token counts as the AI SDK gives them: undefined where the server reported none. */
export interface ModelUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

/**
 * The usage of one reply: what the server reported, or an estimate from the texts sent and
 * written where it reported nothing (some local servers never do), marked as such so budgets and
 * stored runs can say so.
 */
export function reportedUsage(input: {
  usage: ModelUsage;
  /** The system prompt and every message's text, as sent. */
  sent: readonly string[];
  text: string;
}): { usage: TokenUsage; estimated: boolean } {
  const { usage } = input;
  const promptTokens = usage.inputTokens ?? input.sent.reduce((sum, text) => sum + estimateTokens(text), 0);
  const completionTokens = usage.outputTokens ?? estimateTokens(input.text);
  return {
    usage: { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens },
    estimated: usage.inputTokens === undefined || usage.outputTokens === undefined,
  };
}

import type { AgentEventListener } from '../agent/agent-events.js';
import type { DeepSearchResult } from '../agent/agent-types.js';
import { renderAnswerMarkdown } from '../agent/citations/format-footnotes.js';
import type { TokenUsage } from '../providers/spec/llm-client.js';
import type { DeepSearchRuntime } from '../runtime.js';
import type { RunRequest } from './run-request.js';
import { type UrlCitation, urlCitations } from './url-citations.js';

/** What the assistant message says once the run is over. */
export interface CompletionContent {
  /** Markdown with [^n] footnotes and their definitions, or the JSON the caller's schema asked for. */
  text: string;
  /** Citations, with indices counted from `offset`, where the answer starts in the message content. */
  annotations: UrlCitation[];
  /** The run's usage plus that of the call that made the JSON, if any. */
  usage: TokenUsage;
}

/** Runs the deep search a chat request asks for: its question, history and config. */
export function askForRequest(input: {
  runtime: DeepSearchRuntime;
  request: RunRequest;
  signal: AbortSignal;
  onEvent: AgentEventListener;
}): Promise<DeepSearchResult> {
  const { request } = input;
  return input.runtime.ask(request.question, {
    signal: input.signal,
    history: request.history,
    config: request.config,
    onEvent: input.onEvent,
  });
}

export async function completionContent(input: {
  runtime: DeepSearchRuntime;
  request: RunRequest;
  result: DeepSearchResult;
  offset: number;
  signal: AbortSignal;
}): Promise<CompletionContent> {
  const { result, request } = input;
  if (request.answerSchema) {
    const structured = await input.runtime.structureAnswer(result, {
      answerSchema: request.answerSchema,
      signal: input.signal,
    });
    return {
      text: JSON.stringify(structured.object),
      annotations: [],
      usage: addUsage(result.usage, structured.usage),
    };
  }
  const text = renderAnswerMarkdown(result.answer, result.references);
  return { text, annotations: urlCitations(text, result.references, input.offset), usage: result.usage };
}

function addUsage(first: TokenUsage, second: TokenUsage): TokenUsage {
  return {
    promptTokens: first.promptTokens + second.promptTokens,
    completionTokens: first.completionTokens + second.completionTokens,
    totalTokens: first.totalTokens + second.totalTokens,
  };
}

import { renderAnswerMarkdown } from '../../agent/citations/format-footnotes.js';
import { referenceJson } from '../../agent/citations/reference-json.js';
import type { AgentEventListener } from '../../events/agent-events.js';
import type { DeepSearchResult, Reference } from '../../events/deep-search-result.js';
import type { TokenUsage } from '../../providers/spec/llm-client.js';
import type { DeepSearchRuntime } from '../../runtime/create-runtime.js';
import type { ChatRunRequest } from '../run-request/run-request.js';
import { answerResearch } from './research-content.js';
import { type UrlCitation, urlCitations } from './url-citations.js';

/** What the assistant message says once the run is over. */
export interface CompletionContent {
  /** Markdown with [^n] footnotes and their definitions, or the JSON the caller's schema asked for. */
  text: string;
  /** Citations, with indices counted from the start of `text`. */
  annotations: UrlCitation[];
  /** The run's usage plus that of the call that made the JSON, if any. */
  usage: TokenUsage;
  /** What deepsearch adds to OpenAI's objects (`deepsearch`): clients that do not know it ignore it. */
  details: Record<string, unknown>;
}

/** A checked request to run, with the signal that stops it and where its events go. */
export interface AnswerInput {
  runtime: DeepSearchRuntime;
  request: ChatRunRequest;
  signal: AbortSignal;
  onEvent: AgentEventListener;
}

/**
 * Answers a request: the deep search with its question, history and config (then the caller's
 * JSON, if asked for), or, in direct mode, one plain LLM call with the conversation.
 */
export async function answerRequest(input: AnswerInput): Promise<CompletionContent> {
  const { runtime, request, signal } = input;
  if (request.mode === 'direct') {
    const reply = await runtime.askModel({ ...request.direct, signal });
    return {
      text: reply.text,
      annotations: [],
      usage: reply.usage,
      details: { mode: 'direct', ...(request.task ? { task: request.task.kind } : {}) },
    };
  }
  if (request.mode === 'research') return answerResearch(input);
  const { result } = await runtime.run({
    mode: 'search',
    question: request.question,
    config: request.config,
    signal,
    history: request.history,
    observers: [input.onEvent],
    record: request.record,
  });
  const details = deepsearchDetails(result);
  if (request.answerSchema) {
    const structured = await runtime.structureAnswer(result, { answerSchema: request.answerSchema, signal });
    return {
      text: JSON.stringify(structured.object),
      annotations: [],
      usage: addUsage(result.usage, structured.usage),
      details,
    };
  }
  const text = renderAnswerMarkdown(result.answer, result.references);
  return { text, annotations: urlCitations(text, result.references), usage: result.usage, details };
}

/** The run's summary, in the body's snake_case like the rest of OpenAI's objects. */
export function deepsearchDetails(result: DeepSearchResult) {
  return {
    mode: 'search',
    confidence: result.confidence,
    confidence_reason: result.confidenceReason,
    ...(result.independentSources !== undefined ? { independent_sources: result.independentSources } : {}),
    origin: result.origin,
    references: referenceDetails(result.references),
    steps: result.steps,
    duration_ms: result.durationMs,
    visited_urls: result.visitedUrls,
    skipped: result.skipped,
    warnings: result.warnings,
  };
}

/** References in the body's snake_case. */
export function referenceDetails(references: readonly Reference[]) {
  return references.map(referenceJson);
}

function addUsage(first: TokenUsage, second: TokenUsage): TokenUsage {
  return {
    promptTokens: first.promptTokens + second.promptTokens,
    completionTokens: first.completionTokens + second.completionTokens,
    totalTokens: first.totalTokens + second.totalTokens,
  };
}

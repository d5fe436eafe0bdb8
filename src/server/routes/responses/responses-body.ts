import type { TokenUsage } from '../../../providers/spec/llm-client.js';
import type { UrlCitation } from '../../answers/url-citations.js';

/** One response's ids and echo of the request, shared by every event of its stream. */
export interface ResponseIdentity {
  id: string;
  model: string;
  /** Unix seconds. */
  createdAt: number;
  instructions: string | null;
  effort: string | null;
}

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export function toResponsesUsage(usage: TokenUsage): ResponsesUsage {
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

/** The Responses API's citation: flat, where chat nests it under `url_citation`. */
export function toResponsesAnnotation(citation: UrlCitation) {
  const { url, title, start_index, end_index } = citation.url_citation;
  return { type: 'url_citation' as const, url, title, start_index, end_index };
}

/** The progress of the run as a reasoning item with one summary part. */
export function reasoningItem(id: string, summary: string | undefined) {
  return {
    id,
    type: 'reasoning' as const,
    summary: summary === undefined ? [] : [{ type: 'summary_text' as const, text: summary }],
  };
}

export function outputTextPart(text: string, annotations: UrlCitation[]) {
  return {
    type: 'output_text' as const,
    text,
    annotations: annotations.map(toResponsesAnnotation),
    logprobs: [],
  };
}

export function messageItem(
  id: string,
  status: 'in_progress' | 'completed',
  part?: ReturnType<typeof outputTextPart>,
) {
  return { id, type: 'message' as const, role: 'assistant' as const, status, content: part ? [part] : [] };
}

/** The `response` object, as OpenAI returns it and repeats it in the stream's lifecycle events. */
export function responseObject(
  identity: ResponseIdentity,
  state: {
    status: 'in_progress' | 'completed' | 'failed';
    output: unknown[];
    usage?: ResponsesUsage;
    error?: { code: string; message: string } | null;
    details?: Record<string, unknown>;
  },
) {
  return {
    id: identity.id,
    object: 'response' as const,
    created_at: identity.createdAt,
    status: state.status,
    completed_at: state.status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    error: state.error ?? null,
    incomplete_details: null,
    instructions: identity.instructions,
    max_output_tokens: null,
    model: identity.model,
    output: state.output,
    parallel_tool_calls: false,
    previous_response_id: null,
    reasoning: { effort: identity.effort, summary: null },
    store: false,
    temperature: null,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    truncation: 'disabled',
    usage: state.usage ?? null,
    metadata: {},
    ...(state.details ? { deepsearch: state.details } : {}),
  };
}

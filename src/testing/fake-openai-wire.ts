import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from './fake-http-server.js';
import {
  contentText,
  type FakeContentReply,
  parseJsonBody,
  roughTokens,
  sendJson,
} from './fake-llm-script.js';

/** The Chat Completions request fields tests look at; the rest is kept as sent. */
export interface ChatCompletionBody {
  model?: string;
  messages?: Array<{ role?: string; content?: unknown; [field: string]: unknown }>;
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  response_format?: {
    type?: string;
    json_schema?: { name?: string; strict?: boolean; description?: string; schema?: Record<string, unknown> };
  };
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [field: string]: unknown;
}

/** Usage as Chat Completions reports it. */
export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Default: the sum of the other two. */
  total_tokens?: number;
}

export type FakeChatContentReply = FakeContentReply<OpenAiUsage> & {
  /** Default 'stop'; 'length' simulates a reply cut off by max_tokens. */
  finishReason?: string;
  /** Streamed replies: wait this long between SSE events, like a model writing slowly. */
  chunkDelayMs?: number;
  /** Streamed replies: characters per content delta (default 8). */
  chunkSize?: number;
  /** Called once the whole reply was written, so a test can tell what arrived before the end. */
  onEnd?: () => void;
};

/** One request as the fake saw it, with the Chat Completions view of its body. */
export interface FakeOpenAiRequest extends RecordedRequest {
  index: number;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  json: ChatCompletionBody | undefined;
  /** `response_format.json_schema.name`, when the request asks for a JSON schema. */
  schemaName: string | undefined;
  /** The system and developer messages, joined. */
  system: string;
  /** Every other message's text, joined: the user prompt and any re-ask turns. */
  prompt: string;
  /** The route that answers it: the schema name, else the matching `systemRoutes` key. */
  route: string | undefined;
}

export function toChatRequest(raw: RecordedRequest, index: number): Omit<FakeOpenAiRequest, 'route'> {
  const json = parseJsonBody(raw.body) as ChatCompletionBody | undefined;
  const system: string[] = [];
  const rest: string[] = [];
  for (const message of json?.messages ?? []) {
    const text = contentText(message.content);
    if (message.role === 'system' || message.role === 'developer') system.push(text);
    else rest.push(text);
  }
  return {
    ...raw,
    index,
    json,
    schemaName: json?.response_format?.json_schema?.name,
    system: system.join('\n'),
    prompt: rest.join('\n'),
  };
}

function usageOf(reply: FakeChatContentReply, request: FakeOpenAiRequest) {
  if (reply.usage === 'none') return undefined;
  const usage = reply.usage ?? {
    prompt_tokens: roughTokens(request.system + request.prompt),
    completion_tokens: roughTokens(reply.content + (reply.reasoning ?? '')),
  };
  return { ...usage, total_tokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens };
}

function envelope(request: FakeOpenAiRequest, object: string) {
  return {
    id: `chatcmpl-fake-${request.index + 1}`,
    object,
    created: Math.floor(Date.now() / 1000),
    model: request.json?.model ?? 'fake-model',
    system_fingerprint: 'fp_fake',
  };
}

/** A `chat.completion` object, or an SSE stream of `chat.completion.chunk`s when the request streams. */
export function writeChatReply(
  response: ServerResponse,
  reply: FakeChatContentReply,
  request: FakeOpenAiRequest,
): void {
  if (request.json?.stream === true) {
    writeChatStream(response, reply, request);
    return;
  }
  const usage = usageOf(reply, request);
  const message = {
    role: 'assistant',
    content: reply.content,
    refusal: null,
    ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
  };
  sendJson(response, 200, {
    ...envelope(request, 'chat.completion'),
    choices: [{ index: 0, message, logprobs: null, finish_reason: reply.finishReason ?? 'stop' }],
    ...(usage ? { usage } : {}),
  });
}

/**
 * Deltas in small pieces so clients must join them; usage comes in a last chunk with no choices,
 * and only when `stream_options.include_usage` asked for it, as OpenAI documents.
 */
function writeChatStream(response: ServerResponse, reply: FakeChatContentReply, request: FakeOpenAiRequest) {
  const includeUsage = request.json?.stream_options?.include_usage === true;
  const base = envelope(request, 'chat.completion.chunk');
  const chunk = (choices: unknown[], usage?: unknown) =>
    `data: ${JSON.stringify({ ...base, choices, ...(includeUsage ? { usage: usage ?? null } : {}) })}\n\n`;
  const delta = (fields: Record<string, unknown>, finishReason: string | null = null) =>
    chunk([{ index: 0, delta: fields, logprobs: null, finish_reason: finishReason }]);
  const events = [delta({ role: 'assistant', content: '' })];
  for (const piece of pieces(reply.reasoning ?? '', reply.chunkSize))
    events.push(delta({ reasoning_content: piece }));
  for (const piece of pieces(reply.content, reply.chunkSize)) events.push(delta({ content: piece }));
  events.push(delta({}, reply.finishReason ?? 'stop'));
  const usage = usageOf(reply, request);
  if (includeUsage && usage) events.push(chunk([], usage));
  events.push('data: [DONE]\n\n');
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (!reply.chunkDelayMs) {
    response.end(events.join(''));
    reply.onEnd?.();
    return;
  }
  void writeSlowly(response, events, reply.chunkDelayMs).then(() => reply.onEnd?.());
}

async function writeSlowly(response: ServerResponse, events: string[], delayMs: number): Promise<void> {
  for (const event of events) {
    // The client went away (aborted or timed out): stop writing.
    if (response.destroyed) return;
    response.write(event);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  response.end();
}

function pieces(text: string, size = 8): string[] {
  const out: string[] = [];
  for (let offset = 0; offset < text.length; offset += size) out.push(text.slice(offset, offset + size));
  return out;
}

/** OpenAI's error object; compatible servers copy it (vLLM, Ollama, llama.cpp). */
export function openAiErrorBody(status: number, message: string) {
  const type = status >= 500 ? 'server_error' : status === 429 ? 'requests' : 'invalid_request_error';
  const codes: Record<number, string> = {
    401: 'invalid_api_key',
    404: 'model_not_found',
    429: 'rate_limit_exceeded',
  };
  return { error: { message, type, param: null, code: codes[status] ?? null } };
}

export function writeModelList(
  response: ServerResponse,
  models: string[],
  fields: Record<string, unknown> = {},
): void {
  sendJson(response, 200, {
    object: 'list',
    data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake', ...fields })),
  });
}

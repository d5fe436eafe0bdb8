import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from '../../src/testing/fake-http-server.js';
import {
  contentText,
  type FakeContentReply,
  type FakeLlmServer,
  type FakeReplyOf,
  type FakeReplyScript,
  parseJsonBody,
  roughTokens,
  sendJson,
  startFakeLlmServer,
} from '../../src/testing/fake-llm-script.js';

/** The Messages API request fields tests look at; the rest is kept as sent. */
export interface AnthropicMessagesBody {
  model?: string;
  max_tokens?: number;
  temperature?: number;
  system?: string | Array<{ type?: string; text?: string }>;
  messages?: Array<{ role?: string; content?: unknown }>;
  /** Native structured output (models that support it, schemas it accepts). */
  output_config?: { format?: { type?: string; schema?: Record<string, unknown> } };
  /** The AI SDK's fallback: a forced tool named `json` whose input is the object. */
  tools?: Array<{ name?: string; description?: string; input_schema?: Record<string, unknown> }>;
  tool_choice?: { type?: string; name?: string; disable_parallel_tool_use?: boolean };
  stream?: boolean;
  [field: string]: unknown;
}

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
}

/** Anthropic always reports usage; `usage: 'none'` leaves it out, which clients treat as malformed. */
export type FakeAnthropicContentReply = FakeContentReply<AnthropicUsage>;
export type FakeAnthropicReply = FakeReplyOf<FakeAnthropicContentReply>;

export interface FakeAnthropicRequest extends RecordedRequest {
  index: number;
  json: AnthropicMessagesBody | undefined;
  system: string;
  /** Every message's text, joined. */
  prompt: string;
  /** How the request asks for JSON: `output_config.format`, the forced `json` tool, or not at all. */
  jsonMode: 'output-format' | 'json-tool' | undefined;
}

export interface FakeAnthropicOptions extends FakeReplyScript<FakeAnthropicRequest, FakeAnthropicReply> {
  /** When set, a request whose `x-api-key` differs gets Anthropic's 401. */
  apiKey?: string;
}

export type FakeAnthropicServer = FakeLlmServer<FakeAnthropicRequest>;

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/**
 * Anthropic's Messages API on 127.0.0.1: POST /v1/messages, non-streaming. A JSON reply is sent as
 * a text block, or as a `json` tool_use block when the request forced that tool. Point a client at
 * `${server.url}/v1`.
 */
export function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  return startFakeLlmServer<FakeAnthropicRequest, FakeAnthropicContentReply>(
    {
      name: 'Anthropic',
      parse: toAnthropicRequest,
      check: (request) => checkRequest(request, options.apiKey),
      describe: (request) => `#${request.index + 1} ${request.method} ${request.path}`,
      writeContent: writeMessage,
      errorBody: (status, message) => ({
        type: 'error',
        error: { type: errorTypes[status] ?? 'api_error', message },
      }),
    },
    options,
  );
}

function toAnthropicRequest(raw: RecordedRequest, index: number): FakeAnthropicRequest {
  const json = parseJsonBody(raw.body) as AnthropicMessagesBody | undefined;
  const forcedJsonTool = json?.tools?.some((tool) => tool.name === 'json') && json.tool_choice !== undefined;
  return {
    ...raw,
    index,
    json,
    system: contentText(json?.system),
    prompt: (json?.messages ?? []).map((message) => contentText(message.content)).join('\n'),
    jsonMode: json?.output_config?.format ? 'output-format' : forcedJsonTool ? 'json-tool' : undefined,
  };
}

function checkRequest(request: FakeAnthropicRequest, apiKey: string | undefined) {
  if (request.path !== '/v1/messages' || request.method !== 'POST') {
    return { status: 404, message: `unknown path ${request.method} ${request.path}` };
  }
  if (!request.headers['anthropic-version']) {
    return { status: 400, message: 'anthropic-version: header is required' };
  }
  if (!request.json) return { status: 400, message: 'the request body is not a JSON object' };
  if (request.json.stream) return { status: 400, message: 'this fake does not stream' };
  if (apiKey !== undefined && request.headers['x-api-key'] !== apiKey) {
    return { status: 401, message: 'invalid x-api-key', expected: true };
  }
  return undefined;
}

function writeMessage(
  response: ServerResponse,
  reply: FakeAnthropicContentReply,
  request: FakeAnthropicRequest,
): void {
  const content: unknown[] = [];
  if (reply.reasoning) {
    content.push({ type: 'thinking', thinking: reply.reasoning, signature: 'fake-signature' });
  }
  const toolInput = request.jsonMode === 'json-tool' ? parseJsonBody(reply.content) : undefined;
  // A forced tool always answers with a tool_use block; text that is no object can only be text.
  if (toolInput) {
    content.push({ type: 'tool_use', id: `toolu_fake_${request.index + 1}`, name: 'json', input: toolInput });
  } else {
    content.push({ type: 'text', text: reply.content });
  }
  const usage =
    reply.usage === 'none'
      ? undefined
      : (reply.usage ?? {
          input_tokens: roughTokens(request.system + request.prompt),
          output_tokens: roughTokens(reply.content),
        });
  sendJson(response, 200, {
    id: `msg_fake_${request.index + 1}`,
    type: 'message',
    role: 'assistant',
    model: request.json?.model ?? 'claude-fake',
    content,
    stop_reason: toolInput ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    ...(usage ? { usage: { ...usage, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } } : {}),
  });
}

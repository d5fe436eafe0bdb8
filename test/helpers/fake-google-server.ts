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

/** The generateContent request fields tests look at; the rest is kept as sent. */
export interface GenerateContentBody {
  contents?: Array<{ role?: string; parts?: Array<{ text?: string }> }>;
  systemInstruction?: { parts?: Array<{ text?: string }> };
  generationConfig?: {
    temperature?: number;
    maxOutputTokens?: number;
    responseMimeType?: string;
    responseSchema?: Record<string, unknown>;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

export interface GoogleUsage {
  promptTokenCount: number;
  candidatesTokenCount: number;
  thoughtsTokenCount?: number;
  /** Default: the sum of the others. */
  totalTokenCount?: number;
}

export type FakeGoogleContentReply = FakeContentReply<GoogleUsage>;
export type FakeGoogleReply = FakeReplyOf<FakeGoogleContentReply>;

export interface FakeGoogleRequest extends RecordedRequest {
  index: number;
  json: GenerateContentBody | undefined;
  /** The model named in the path (`/v1beta/models/{model}:generateContent`). */
  model: string | undefined;
  system: string;
  /** Every content's text, joined. */
  prompt: string;
}

export interface FakeGoogleOptions extends FakeReplyScript<FakeGoogleRequest, FakeGoogleReply> {
  /** When set, a request whose `x-goog-api-key` differs gets what Gemini sends: 400 API_KEY_INVALID. */
  apiKey?: string;
}

export type FakeGoogleServer = FakeLlmServer<FakeGoogleRequest>;

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** What Gemini adds to the 400 it sends for a wrong key (it does not use 401). */
export const apiKeyInvalidDetails = [
  {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'API_KEY_INVALID',
    domain: 'googleapis.com',
    metadata: { service: 'generativelanguage.googleapis.com' },
  },
];

const generatePath = /^\/v1beta\/models\/([^/:]+):generateContent$/;

/**
 * The Gemini API on 127.0.0.1: POST /v1beta/models/{model}:generateContent, non-streaming.
 * Point a client at `${server.url}/v1beta`.
 */
export function startFakeGoogle(options: FakeGoogleOptions = {}): Promise<FakeGoogleServer> {
  return startFakeLlmServer<FakeGoogleRequest, FakeGoogleContentReply>(
    {
      name: 'Google',
      parse: toGoogleRequest,
      check: (request) => checkRequest(request, options.apiKey),
      describe: (request) => `#${request.index + 1} ${request.method} ${request.path}`,
      writeContent: writeGenerateContent,
      errorBody: googleErrorBody,
    },
    options,
  );
}

export function googleErrorBody(status: number, message: string, details?: unknown[]) {
  return { error: { code: status, message, status: statusNames[status] ?? 'UNKNOWN', details } };
}

function toGoogleRequest(raw: RecordedRequest, index: number): FakeGoogleRequest {
  const json = parseJsonBody(raw.body) as GenerateContentBody | undefined;
  return {
    ...raw,
    index,
    json,
    model: generatePath.exec(raw.path)?.[1],
    system: contentText(json?.systemInstruction?.parts),
    prompt: (json?.contents ?? []).map((content) => contentText(content.parts)).join('\n'),
  };
}

function checkRequest(request: FakeGoogleRequest, apiKey: string | undefined) {
  if (!request.model || request.method !== 'POST') {
    return { status: 404, message: `unknown path ${request.method} ${request.path}` };
  }
  if (!request.json) return { status: 400, message: 'the request body is not a JSON object' };
  if (apiKey !== undefined && request.headers['x-goog-api-key'] !== apiKey) {
    const message = 'API key not valid. Please pass a valid API key.';
    return {
      status: 400,
      message,
      expected: true,
      body: googleErrorBody(400, message, apiKeyInvalidDetails),
    };
  }
  return undefined;
}

function writeGenerateContent(
  response: ServerResponse,
  reply: FakeGoogleContentReply,
  request: FakeGoogleRequest,
): void {
  const parts: unknown[] = [];
  if (reply.reasoning) parts.push({ text: reply.reasoning, thought: true });
  parts.push({ text: reply.content });
  const usage =
    reply.usage === 'none'
      ? undefined
      : (reply.usage ?? {
          promptTokenCount: roughTokens(request.system + request.prompt),
          candidatesTokenCount: roughTokens(reply.content),
        });
  const usageMetadata = usage && {
    ...usage,
    totalTokenCount:
      usage.totalTokenCount ??
      usage.promptTokenCount + usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0),
  };
  sendJson(response, 200, {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    ...(usageMetadata ? { usageMetadata } : {}),
    modelVersion: request.model,
    responseId: `fake-response-${request.index + 1}`,
  });
}

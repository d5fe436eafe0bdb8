import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { InputError } from '../errors/index.js';
import type { DeepSearchRuntime } from '../runtime.js';
import { chatRequestSchema } from './chat-request-schema.js';
import { streamChatCompletion } from './chat-stream.js';
import { completeChat } from './completion-body.js';
import { createChunkFactory } from './completion-chunks.js';
import type { ConcurrencyLimiter } from './concurrency-limiter.js';
import { type RunRequest, toRunRequest } from './run-request.js';
import type { ServerEnv } from './server-env.js';

export interface ChatCompletionsOptions {
  runtime: DeepSearchRuntime;
  limiter: ConcurrencyLimiter;
  models: readonly string[];
  searchProviders: readonly string[];
  /** Fires when the shutdown grace period is over: runs still going are cancelled. */
  shutdownSignal: AbortSignal;
  heartbeatMs?: number;
}

/**
 * POST /v1/chat/completions. Everything about the request is checked before a slot is taken and
 * before any byte of a 200 is sent, so a bad request is always a 4xx, never an error inside a 200.
 */
export function createChatCompletionsHandler(options: ChatCompletionsOptions) {
  return async (c: Context<ServerEnv>) => {
    const request = await readRunRequest(c, options);
    const record = c.var.record;
    record.model = request.model;
    record.stream = request.stream;
    const signal = AbortSignal.any([c.req.raw.signal, options.shutdownSignal]);
    const release = await options.limiter.acquire(signal);
    const identity = {
      id: `chatcmpl-${randomUUID()}`,
      model: request.model,
      created: Math.floor(Date.now() / 1000),
    };
    if (!request.stream) {
      try {
        const body = await completeChat({ runtime: options.runtime, request, identity, signal });
        record.outcome = 'answered';
        record.tokens = body.usage.total_tokens;
        return c.json(body);
      } finally {
        release();
      }
    }
    let finish: () => void = () => undefined;
    record.finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    return streamChatCompletion(c, {
      runtime: options.runtime,
      request,
      chunks: createChunkFactory(identity, { includeUsage: request.includeUsage }),
      signal,
      heartbeatMs: options.heartbeatMs,
      onEnd: (outcome) => {
        Object.assign(record, outcome);
        release();
        finish();
      },
    });
  };
}

async function readRunRequest(c: Context<ServerEnv>, options: ChatCompletionsOptions): Promise<RunRequest> {
  return parseChatRequest(await readJsonObject(c), options);
}

/** The body as a JSON object, or a 400 saying what is wrong with it. */
export async function readJsonObject(c: Context<ServerEnv>): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch (error) {
    throw new InputError('the request body is not valid JSON', { code: 'invalid_json', cause: error });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InputError('the request body must be a JSON object', { code: 'invalid_json' });
  }
  return body as Record<string, unknown>;
}

/** A chat request body (or one translated from another API) checked and turned into a RunRequest. */
export function parseChatRequest(
  body: Record<string, unknown>,
  options: Pick<ChatCompletionsOptions, 'runtime' | 'models' | 'searchProviders'>,
): RunRequest {
  const parsed = chatRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = issue.path.join('.');
    throw new InputError(`${param || 'body'}: ${issue.message}`, {
      param: param || undefined,
      code: 'invalid_value',
    });
  }
  return toRunRequest(parsed.data, {
    config: options.runtime.config,
    models: options.models,
    searchProviders: options.searchProviders,
  });
}

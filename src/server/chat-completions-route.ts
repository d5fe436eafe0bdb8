import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import { streamChatCompletion } from './chat-stream.js';
import { completeChat } from './completion-body.js';
import { createChunkFactory } from './completion-chunks.js';
import type { ConcurrencyLimiter } from './concurrency-limiter.js';
import { parseChatRequest, readJsonObject } from './read-chat-request.js';
import { takeRequestSlot } from './request-slot.js';
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
    const request = parseChatRequest(await readJsonObject(c), options);
    request.record = { owner: c.var.owner, source: 'chat-completions' };
    const slot = await takeRequestSlot(c, options, request);
    const identity = {
      id: `chatcmpl-${randomUUID()}`,
      model: request.model,
      created: Math.floor(Date.now() / 1000),
    };
    if (!request.stream) {
      const body = await slot.respond(async () => {
        const body = await completeChat({ runtime: options.runtime, request, identity, signal: slot.signal });
        return { body, tokens: body.usage.total_tokens };
      });
      return c.json(body);
    }
    return streamChatCompletion(c, {
      runtime: options.runtime,
      request,
      chunks: createChunkFactory(identity, { includeUsage: request.includeUsage }),
      signal: slot.signal,
      heartbeatMs: options.heartbeatMs,
      onEnd: slot.onStreamEnd(),
    });
  };
}

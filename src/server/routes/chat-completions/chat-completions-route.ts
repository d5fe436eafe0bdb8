import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { takeRequestSlot } from '../../concurrency/request-slot.js';
import { readJsonObject } from '../../http/read-json-object.js';
import { parseChatRequest } from '../../run-request/run-request.js';
import type { ApiRouteOptions, ServerEnv } from '../../server-env.js';
import { streamChatCompletion } from './chat-stream.js';
import { completeChat } from './completion-body.js';
import { createChunkFactory } from './completion-chunks.js';

/**
 * POST /v1/chat/completions (mounted there: this app's route is `/`). Everything about the request
 * is checked before a slot is taken and before any byte of a 200 is sent, so a bad request is
 * always a 4xx, never an error inside a 200.
 */
export function createChatCompletionsRoute(options: ApiRouteOptions): Hono<ServerEnv> {
  return new Hono<ServerEnv>().post('/', async (c) => {
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
  });
}

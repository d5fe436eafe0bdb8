import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { type ChatCompletionsOptions, parseChatRequest, readJsonObject } from './chat-completions-route.js';
import { answerRequest } from './completion-content.js';
import { describeProgress } from './progress-reasoning.js';
import {
  messageItem,
  outputTextPart,
  type ResponseIdentity,
  reasoningItem,
  responseObject,
  toResponsesUsage,
} from './responses-body.js';
import { toChatBody } from './responses-request.js';
import { streamResponse } from './responses-stream.js';
import type { ServerEnv } from './server-env.js';

/**
 * POST /v1/responses: OpenAI's Responses API over the same run as chat completions. The body is
 * translated into a chat request, so options, checks and errors are the same; the answer comes
 * back as a reasoning item (the progress) and a message item with url_citation annotations.
 */
export function createResponsesHandler(options: ChatCompletionsOptions) {
  return async (c: Context<ServerEnv>) => {
    const raw = await readJsonObject(c);
    const request = parseChatRequest(toChatBody(raw), options);
    const record = c.var.record;
    record.model = request.model;
    record.stream = request.stream;
    const signal = AbortSignal.any([c.req.raw.signal, options.shutdownSignal]);
    const release = await options.limiter.acquire(signal);
    const uuid = randomUUID().replaceAll('-', '');
    const effort = (raw.reasoning as { effort?: unknown } | null | undefined)?.effort;
    const identity: ResponseIdentity = {
      id: `resp_${uuid}`,
      model: request.model,
      createdAt: Math.floor(Date.now() / 1000),
      instructions: typeof raw.instructions === 'string' ? raw.instructions : null,
      effort: typeof effort === 'string' ? effort : null,
    };
    if (!request.stream) {
      try {
        const progress: string[] = [];
        const content = await answerRequest({
          runtime: options.runtime,
          request,
          signal,
          onEvent: (event) => {
            const text = describeProgress(event);
            if (text) progress.push(text);
          },
        });
        const output = [
          ...(progress.length > 0 ? [reasoningItem(`rs_${uuid}`, progress.join(''))] : []),
          messageItem(`msg_${uuid}`, 'completed', outputTextPart(content.text, content.annotations)),
        ];
        const usage = toResponsesUsage(content.usage);
        record.outcome = 'answered';
        record.tokens = usage.total_tokens;
        return c.json(
          responseObject(identity, { status: 'completed', output, usage, details: content.details }),
        );
      } finally {
        release();
      }
    }
    let finish: () => void = () => undefined;
    record.finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    return streamResponse(c, {
      runtime: options.runtime,
      request,
      identity,
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

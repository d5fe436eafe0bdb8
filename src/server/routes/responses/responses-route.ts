import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { answerRequest } from '../../answers/answer-request.js';
import { describeProgress } from '../../answers/progress-reasoning.js';
import { takeRequestSlot } from '../../concurrency/request-slot.js';
import { clientRedactorOf } from '../../http/client-redactor.js';
import { readJsonObject } from '../../http/read-json-object.js';
import { parseChatRequest } from '../../run-request/run-request.js';
import type { ApiRouteOptions, ServerEnv } from '../../server-env.js';
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

/**
 * POST /v1/responses (mounted there: this app's route is `/`): OpenAI's Responses API over the
 * same run as chat completions. The body is translated into a chat request, so options, checks and
 * errors are the same; the answer comes back as a reasoning item (the progress) and a message item
 * with url_citation annotations.
 */
export function createResponsesRoute(options: ApiRouteOptions): Hono<ServerEnv> {
  return new Hono<ServerEnv>().post('/', async (c) => {
    const raw = await readJsonObject(c);
    const request = parseChatRequest(toChatBody(raw), options);
    request.record = { owner: c.var.owner, source: 'responses' };
    const slot = await takeRequestSlot(c, options, request);
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
      const body = await slot.respond(async () => {
        const progress: string[] = [];
        const content = await answerRequest({
          runtime: options.runtime,
          request,
          signal: slot.signal,
          onEvent: (event) => {
            const text = describeProgress(event);
            // Progress quotes upstream text (errors): no key or internal address goes out.
            if (text) progress.push(clientRedactorOf(options.runtime)(text));
          },
        });
        const output = [
          ...(progress.length > 0 ? [reasoningItem(`rs_${uuid}`, progress.join(''))] : []),
          messageItem(`msg_${uuid}`, 'completed', outputTextPart(content.text, content.annotations)),
        ];
        const usage = toResponsesUsage(content.usage);
        const details = content.details;
        return {
          body: responseObject(identity, { status: 'completed', output, usage, details }),
          tokens: usage.total_tokens,
        };
      });
      return c.json(body);
    }
    return streamResponse(c, {
      runtime: options.runtime,
      request,
      identity,
      signal: slot.signal,
      heartbeatMs: options.heartbeatMs,
      onEnd: slot.onStreamEnd(),
    });
  });
}

import type { Context } from 'hono';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { answerRequest } from '../../answers/answer-request.js';
import { describeProgress } from '../../answers/progress-reasoning.js';
import { shiftCitations } from '../../answers/url-citations.js';
import { clientRedactorOf } from '../../http/client-redactor.js';
import { streamEvents } from '../../http/event-stream-response.js';
import { toServerErrorResponse } from '../../http/server-error-response.js';
import type { ChatRunRequest } from '../../run-request/run-request.js';
import type { ServerEnv } from '../../server-env.js';
import { type ChunkFactory, toOpenAiUsage } from './completion-chunks.js';
import { createSseChunkWriter } from './sse-chunk-writer.js';

export interface ChatStreamInput {
  runtime: DeepSearchRuntime;
  request: ChatRunRequest;
  chunks: ChunkFactory;
  signal: AbortSignal;
  /** Called once when the stream is over, whatever happened. */
  onEnd: (outcome: { outcome: string; tokens?: number; errorCode?: string }) => void;
  heartbeatMs?: number;
}

/**
 * The run as Server-Sent Events: progress as reasoning (or inside <think> in the content), then
 * the answer, the finish chunk (with the citations and the usage, since some clients read them only
 * there), usage again in its own chunk when asked for as OpenAI sends it, and `[DONE]`. A
 * failure after the 200 went out becomes an error chunk, then `[DONE]`; a client that left gets
 * nothing more.
 */
export function streamChatCompletion(c: Context<ServerEnv>, input: ChatStreamInput): Response {
  const { runtime, request, signal } = input;
  // Tells nginx and similar proxies not to buffer the stream.
  c.header('X-Accel-Buffering', 'no');
  return streamEvents(c, async (stream) => {
    const writer = createSseChunkWriter(stream, {
      redact: clientRedactorOf(runtime),
      chunks: input.chunks,
      thinkTags: request.thinkTags,
      heartbeatMs: input.heartbeatMs ?? 15_000,
    });
    await writer.open();
    try {
      const content = await answerRequest({
        runtime,
        request,
        signal,
        onEvent: (event) => {
          const progress = describeProgress(event);
          if (progress) writer.reasoning(progress);
          // A research report's sections run deep searches whose answers are not the reply.
          if (event.type === 'answer-delta' && request.mode === 'search' && !request.answerSchema)
            writer.answerDelta(event.delta);
        },
      });
      const offset = writer.answerOffset();
      writer.answer(content.text);
      const usage = toOpenAiUsage(content.usage);
      const annotations = shiftCitations(content.annotations, offset);
      writer.send({
        ...input.chunks.finish({ annotations, usage }),
        deepsearch: content.details,
      });
      if (request.includeUsage) writer.send(input.chunks.usage(usage));
      input.onEnd({ outcome: 'answered', tokens: usage.total_tokens });
    } catch (error) {
      if (c.req.raw.signal.aborted) return input.onEnd({ outcome: 'cancelled' });
      const { body } = toServerErrorResponse(error, c);
      writer.send(body);
      input.onEnd({ outcome: 'failed', errorCode: body.error.code ?? undefined });
    } finally {
      await writer.close({ done: !c.req.raw.signal.aborted });
    }
  });
}

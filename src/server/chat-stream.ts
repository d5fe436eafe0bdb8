import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { DeepSearchRuntime } from '../runtime.js';
import { deepsearchDetails } from './completion-body.js';
import { type ChunkFactory, toOpenAiUsage } from './completion-chunks.js';
import { askForRequest, completionContent } from './completion-content.js';
import { describeProgress } from './progress-reasoning.js';
import type { RunRequest } from './run-request.js';
import type { ServerEnv } from './server-env.js';
import { toServerErrorResponse } from './server-error-response.js';
import { createSseChunkWriter } from './sse-chunk-writer.js';

export interface ChatStreamInput {
  runtime: DeepSearchRuntime;
  request: RunRequest;
  chunks: ChunkFactory;
  signal: AbortSignal;
  /** Called once when the stream is over, whatever happened. */
  onEnd: (outcome: { outcome: string; tokens?: number; errorCode?: string }) => void;
  heartbeatMs?: number;
}

/**
 * The run as Server-Sent Events: progress as reasoning (or inside <think> in the content), then
 * the answer, the citations, the finish chunk, usage when asked for, and `[DONE]`. A failure after
 * the 200 went out becomes an error chunk, then `[DONE]`; a client that left gets nothing more.
 */
export function streamChatCompletion(c: Context<ServerEnv>, input: ChatStreamInput): Response {
  const { runtime, request, signal } = input;
  return streamSSE(c, async (stream) => {
    const writer = createSseChunkWriter(stream, {
      redact: runtime.redact,
      chunks: input.chunks,
      thinkTags: request.thinkTags,
      heartbeatMs: input.heartbeatMs ?? 15_000,
    });
    await writer.open();
    try {
      const result = await askForRequest({
        runtime,
        request,
        signal,
        onEvent: (event) => {
          const progress = describeProgress(event);
          if (progress) writer.reasoning(progress);
          if (event.type === 'answer-delta' && !request.answerSchema) writer.answerDelta(event.delta);
        },
      });
      const offset = writer.answerOffset();
      const content = await completionContent({ runtime, request, result, offset, signal });
      writer.answer(content.text);
      if (content.annotations.length > 0)
        writer.send(input.chunks.delta({ annotations: content.annotations }));
      writer.send({ ...input.chunks.delta({}, 'stop'), deepsearch: deepsearchDetails(result) });
      const usage = toOpenAiUsage(content.usage);
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

import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { DeepSearchRuntime } from '../runtime.js';
import { deepsearchDetails } from './completion-body.js';
import { type ChunkFactory, toOpenAiUsage } from './completion-chunks.js';
import { completionContent } from './completion-content.js';
import { toErrorResponse } from './openai-error.js';
import { describeProgress } from './progress-reasoning.js';
import type { RunRequest } from './run-request.js';
import type { ServerEnv } from './server-env.js';

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
  const { runtime, request, chunks, signal } = input;
  return streamSSE(c, async (stream) => {
    let pending = Promise.resolve();
    const send = (data: unknown) => {
      pending = pending.then(() => stream.writeSSE({ data: JSON.stringify(data) }));
    };
    let contentLength = 0;
    const sendContent = (text: string) => {
      contentLength += text.length;
      send(chunks.delta({ content: text }));
    };
    let thinkOpen = false;
    const sendReasoning = (text: string) => {
      if (!request.thinkTags) return send(chunks.delta({ reasoning_content: text }));
      if (!thinkOpen) sendContent('<think>\n');
      thinkOpen = true;
      sendContent(text);
    };
    const closeThink = () => {
      if (thinkOpen) sendContent('\n</think>\n\n');
      thinkOpen = false;
    };
    let streamed = '';
    let answerStart: number | undefined;
    const heartbeat = setInterval(() => {
      pending = pending.then(() => stream.write(': keep-alive\n\n').then(() => undefined));
    }, input.heartbeatMs ?? 15_000);
    send(chunks.delta({ role: 'assistant', content: '', refusal: null }));
    // The first chunk goes out before the run's synchronous start (prompt building) delays it.
    await pending;
    try {
      const result = await runtime.ask(request.question, {
        signal,
        history: request.history,
        config: request.config,
        onEvent: (event) => {
          const progress = describeProgress(event);
          if (progress) sendReasoning(progress);
          if (event.type !== 'answer-delta' || request.answerSchema) return;
          closeThink();
          answerStart ??= contentLength;
          streamed += event.delta;
          sendContent(event.delta);
        },
      });
      closeThink();
      const content = await completionContent({
        runtime,
        request,
        result,
        offset: answerStart ?? contentLength,
        signal,
      });
      sendContent(content.text.startsWith(streamed) ? content.text.slice(streamed.length) : content.text);
      if (content.annotations.length > 0) send(chunks.delta({ annotations: content.annotations }));
      send({ ...chunks.delta({}, 'stop'), deepsearch: deepsearchDetails(result) });
      const usage = toOpenAiUsage(content.usage);
      if (request.includeUsage) send(chunks.usage(usage));
      input.onEnd({ outcome: 'answered', tokens: usage.total_tokens });
    } catch (error) {
      if (c.req.raw.signal.aborted) {
        input.onEnd({ outcome: 'cancelled' });
        return;
      }
      const { body } = toErrorResponse(error);
      send(body);
      input.onEnd({ outcome: 'failed', errorCode: body.error.code ?? undefined });
    } finally {
      clearInterval(heartbeat);
      if (!c.req.raw.signal.aborted)
        pending = pending.then(() => stream.write('data: [DONE]\n\n').then(() => undefined));
      await pending;
    }
  });
}

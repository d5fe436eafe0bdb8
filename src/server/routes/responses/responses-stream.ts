import type { Context } from 'hono';
import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { answerRequest } from '../../answers/answer-request.js';
import { describeProgress } from '../../answers/progress-reasoning.js';
import { clientRedactorOf } from '../../http/client-redactor.js';
import { streamEvents } from '../../http/event-stream-response.js';
import { toErrorResponse } from '../../http/openai-error.js';
import type { ChatRunRequest } from '../../run-request/run-request.js';
import type { ServerEnv } from '../../server-env.js';
import {
  messageItem,
  outputTextPart,
  type ResponseIdentity,
  reasoningItem,
  responseObject,
  toResponsesAnnotation,
  toResponsesUsage,
} from './responses-body.js';

export interface ResponsesStreamInput {
  runtime: DeepSearchRuntime;
  request: ChatRunRequest;
  identity: ResponseIdentity;
  signal: AbortSignal;
  onEnd: (outcome: { outcome: string; tokens?: number; errorCode?: string }) => void;
  heartbeatMs?: number;
}

/**
 * The run as the Responses API's typed events: created, in_progress, the progress as a reasoning
 * item's summary deltas, then the message item with its output_text deltas, one annotation event
 * per citation, the done events, and response.completed with usage. A failure after the 200 is an
 * `error` event and response.failed.
 */
export function streamResponse(c: Context<ServerEnv>, input: ResponsesStreamInput): Response {
  const { identity, request } = input;
  c.header('X-Accel-Buffering', 'no');
  return streamEvents(c, async (stream) => {
    let sequence = 0;
    const redact = clientRedactorOf(input.runtime);
    let pending = Promise.resolve();
    const emit = (type: string, fields: Record<string, unknown>) => {
      // Progress quotes upstream text (errors): no key or internal address goes out.
      const data = redact(JSON.stringify({ type, sequence_number: sequence++, ...fields }));
      pending = pending.then(() => stream.writeSSE({ event: type, data }));
    };
    const heartbeat = setInterval(() => {
      pending = pending.then(() => stream.write(': keep-alive\n\n')).then(() => undefined);
    }, input.heartbeatMs ?? 15_000);
    const output: unknown[] = [];
    const reasoningId = `rs_${identity.id.slice(5)}`;
    const messageId = `msg_${identity.id.slice(5)}`;
    let summary: string | undefined;
    let messageIndex: number | undefined;
    let streamed = '';
    const closeReasoning = () => {
      if (summary === undefined || output.length > 0) return;
      const where = { item_id: reasoningId, output_index: 0, summary_index: 0 };
      emit('response.reasoning_summary_text.done', { ...where, text: summary });
      emit('response.reasoning_summary_part.done', {
        ...where,
        part: { type: 'summary_text', text: summary },
      });
      output.push(reasoningItem(reasoningId, summary));
      emit('response.output_item.done', { output_index: 0, item: output[0] });
    };
    const progress = (text: string) => {
      if (messageIndex !== undefined) return;
      const where = { item_id: reasoningId, output_index: 0, summary_index: 0 };
      if (summary === undefined) {
        summary = '';
        emit('response.output_item.added', { output_index: 0, item: reasoningItem(reasoningId, undefined) });
        emit('response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } });
      }
      summary += text;
      emit('response.reasoning_summary_text.delta', { ...where, delta: text });
    };
    const textWhere = () => ({ item_id: messageId, output_index: messageIndex, content_index: 0 });
    const answerText = (text: string) => {
      if (messageIndex === undefined) {
        closeReasoning();
        messageIndex = output.length;
        emit('response.output_item.added', {
          output_index: messageIndex,
          item: messageItem(messageId, 'in_progress'),
        });
        emit('response.content_part.added', { ...textWhere(), part: outputTextPart('', []) });
      }
      if (!text) return;
      streamed += text;
      emit('response.output_text.delta', { ...textWhere(), delta: text, logprobs: [] });
    };

    emit('response.created', { response: responseObject(identity, { status: 'in_progress', output: [] }) });
    emit('response.in_progress', {
      response: responseObject(identity, { status: 'in_progress', output: [] }),
    });
    try {
      const content = await answerRequest({
        runtime: input.runtime,
        request,
        signal: input.signal,
        onEvent: (event) => {
          const text = describeProgress(event);
          if (text) progress(text);
          // A research report's sections run deep searches whose answers are not the reply.
          if (event.type === 'answer-delta' && request.mode === 'search' && !request.answerSchema)
            answerText(event.delta);
        },
      });
      answerText(content.text.startsWith(streamed) ? content.text.slice(streamed.length) : content.text);
      for (const [index, citation] of content.annotations.entries()) {
        emit('response.output_text.annotation.added', {
          ...textWhere(),
          annotation_index: index,
          annotation: toResponsesAnnotation(citation),
        });
      }
      const part = outputTextPart(content.text, content.annotations);
      emit('response.output_text.done', { ...textWhere(), text: content.text, logprobs: [] });
      emit('response.content_part.done', { ...textWhere(), part });
      const message = messageItem(messageId, 'completed', part);
      output.push(message);
      emit('response.output_item.done', { output_index: messageIndex, item: message });
      const usage = toResponsesUsage(content.usage);
      emit('response.completed', {
        response: responseObject(identity, { status: 'completed', output, usage, details: content.details }),
      });
      input.onEnd({ outcome: 'answered', tokens: usage.total_tokens });
    } catch (error) {
      if (c.req.raw.signal.aborted) return input.onEnd({ outcome: 'cancelled' });
      const { error: body } = toErrorResponse(error).body;
      const code = body.code ?? 'server_error';
      emit('error', { code, message: body.message, param: body.param });
      emit('response.failed', {
        response: responseObject(identity, {
          status: 'failed',
          output,
          error: { code, message: body.message },
        }),
      });
      input.onEnd({ outcome: 'failed', errorCode: code });
    } finally {
      clearInterval(heartbeat);
      await pending;
    }
  });
}

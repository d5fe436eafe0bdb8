import type { LanguageModelV3 } from '@ai-sdk/provider';
import { generateText, type ModelMessage, streamText } from 'ai';
import { AbortedError, isProviderError, structuredOutputUnsupportedCode } from '../core/errors/index.js';
import { createFieldStreamer } from './create-field-streamer.js';
import { type ModelUsage, reportedUsage } from './reported-usage.js';
import { readRestart } from './stream-restart.js';
import type { RetryNotice, StreamTextOptions, TokenUsage } from './structured-output-request.js';

/** One model reply, from one request (retries inside the model's middleware included). */
export interface Reply {
  text: string;
  reasoning: string;
  usage: TokenUsage;
  estimated: boolean;
  ms: number;
}

export interface RequestReplyOptions {
  model: LanguageModelV3;
  system: string;
  messages: ModelMessage[];
  temperature?: number;
  maxOutputTokens?: number;
  abortSignal?: AbortSignal;
  /** Stream the reply and follow this field as it is written; the whole text is returned too. */
  stream?: StreamTextOptions;
  /** False once this server refused a streamed request: `stream` is then served from a whole reply. */
  canStream: boolean;
  /** Told when a streamed request was refused but the same request sent whole was answered. */
  onStreamRefused: () => void;
  /** Told when a streamed request failed half-way and starts over (the field was reset first). */
  onRestart: (notice: RetryNotice) => void;
}

/** One request: streamed when the caller streams a field and the server can, else sent whole. */
export async function requestReply(options: RequestReplyOptions): Promise<Reply> {
  const started = performance.now();
  const call = {
    model: options.model,
    system: options.system,
    messages: options.messages,
    temperature: options.temperature,
    maxOutputTokens: options.maxOutputTokens,
    // Retries are the model middleware's: one retry path for every LLM call.
    maxRetries: 0,
    abortSignal: options.abortSignal,
  };
  const finish = (text: string, reasoning: string | undefined, usage: ModelUsage) =>
    toReply({ text, reasoning, usage, options, ms: performance.now() - started });
  const { stream } = options;
  if (stream && options.canStream) {
    try {
      const streamed = await streamReply(call, stream, options.onRestart);
      return finish(streamed.text, streamed.reasoning, streamed.usage);
    } catch (error) {
      if (!isStreamRefusal(error)) throw error;
      stream.onReset?.();
    }
  }
  const result = await generateText(call);
  if (stream) {
    // A server that cannot stream still gets the field's text out, in one delta.
    const delta = createFieldStreamer(stream.path, stream.otherPaths).push(result.text);
    if (delta) stream.onDelta(delta);
    if (options.canStream) options.onStreamRefused();
  }
  return finish(result.text, result.reasoningText, result.usage);
}

async function streamReply(
  call: Parameters<typeof streamText>[0],
  stream: StreamTextOptions,
  onRestart: (notice: RetryNotice) => void,
): Promise<{ text: string; reasoning: string; usage: ModelUsage }> {
  let field = createFieldStreamer(stream.path, stream.otherPaths);
  let text: string[] = [];
  let reasoning: string[] = [];
  let usage: ModelUsage = { inputTokens: undefined, outputTokens: undefined };
  // Errors arrive as stream parts and are thrown below; the SDK's default would also log them.
  const result = streamText({ ...call, includeRawChunks: true, onError: () => {} });
  for await (const part of result.fullStream) {
    if (part.type === 'raw') {
      const notice = readRestart(part.rawValue);
      if (!notice) continue;
      // The middleware sends the request again: what was written so far is no part of the reply.
      field = createFieldStreamer(stream.path, stream.otherPaths);
      text = [];
      reasoning = [];
      stream.onReset?.();
      onRestart(notice);
    } else if (part.type === 'text-delta') {
      text.push(part.text);
      const delta = field.push(part.text);
      if (delta) stream.onDelta(delta);
    } else if (part.type === 'reasoning-delta') reasoning.push(part.text);
    else if (part.type === 'finish') usage = part.totalUsage;
    else if (part.type === 'error') throw part.error;
  }
  // An aborted stream ends quietly (an 'abort' part) with the text so far: that is no reply, and
  // parsing it would re-ask the model after the caller left.
  const signal = call.abortSignal;
  if (signal?.aborted) throw new AbortedError(undefined, { cause: signal.reason });
  return { text: text.join(''), reasoning: reasoning.join(''), usage };
}

/** A 4xx other than auth, rate limit or a refused JSON schema: the server may not do `stream: true`. */
function isStreamRefusal(error: unknown): boolean {
  if (!isProviderError(error) || error.code === structuredOutputUnsupportedCode) return false;
  const status = error.statusCode;
  return status !== undefined && [400, 404, 405, 415, 422, 501].includes(status);
}

function toReply(input: {
  text: string;
  reasoning: string | undefined;
  usage: ModelUsage;
  options: Pick<RequestReplyOptions, 'system' | 'messages'>;
  ms: number;
}): Reply {
  const { text, options } = input;
  const sent = [options.system, ...options.messages.map((message) => String(message.content))];
  const { usage, estimated } = reportedUsage({ usage: input.usage, sent, text });
  return { text, reasoning: input.reasoning ?? '', usage, estimated, ms: Math.round(input.ms) };
}

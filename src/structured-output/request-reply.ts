import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3Prompt,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
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

/** A turn of the conversation: the prompt, and on a re-ask the reply and what was wrong with it. */
export interface TextMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface RequestReplyOptions {
  model: LanguageModelV3;
  system: string;
  messages: TextMessage[];
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

/**
 * One request: streamed when the caller streams a field and the server can, else sent whole.
 *
 * Straight to the model's own calls (the AI SDK's LanguageModelV3 doStream / doGenerate, through
 * its middleware), not generateText / streamText: those add a call's tools, steps, output parsing,
 * telemetry spans and several more web streams per chunk, none of which a single text reply uses,
 * and on a busy server that was a third of a streamed call's CPU.
 */
export async function requestReply(options: RequestReplyOptions): Promise<Reply> {
  const started = performance.now();
  const call: LanguageModelV3CallOptions = {
    prompt: toPrompt(options.system, options.messages),
    temperature: options.temperature,
    maxOutputTokens: options.maxOutputTokens,
    abortSignal: options.abortSignal,
  };
  const finish = (text: string, reasoning: string | undefined, usage: LanguageModelV3Usage | undefined) =>
    toReply({ text, reasoning, usage: modelUsage(usage), options, ms: performance.now() - started });
  const { stream } = options;
  if (stream && options.canStream) {
    try {
      const streamed = await streamReply(options.model, call, stream, options.onRestart);
      return finish(streamed.text, streamed.reasoning, streamed.usage);
    } catch (error) {
      if (!isStreamRefusal(error)) throw error;
      stream.onReset?.();
    }
  }
  const result = await whenAborted(call.abortSignal, () => options.model.doGenerate(call));
  const text = joinParts(result.content, 'text');
  if (stream) {
    // A server that cannot stream still gets the field's text out, in one delta.
    const delta = createFieldStreamer(stream.path, stream.otherPaths).push(text);
    if (delta) stream.onDelta(delta);
    if (options.canStream) options.onStreamRefused();
  }
  return finish(text, joinParts(result.content, 'reasoning') || undefined, result.usage);
}

async function streamReply(
  model: LanguageModelV3,
  call: LanguageModelV3CallOptions,
  stream: StreamTextOptions,
  onRestart: (notice: RetryNotice) => void,
): Promise<{ text: string; reasoning: string; usage: LanguageModelV3Usage | undefined }> {
  let field = createFieldStreamer(stream.path, stream.otherPaths);
  let text: string[] = [];
  let reasoning: string[] = [];
  let usage: LanguageModelV3Usage | undefined;
  await whenAborted(call.abortSignal, async () => {
    // Raw chunks carry the retry middleware's restart notices.
    const { stream: parts } = await model.doStream({ ...call, includeRawChunks: true });
    const reader = parts.getReader();
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
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
          text.push(part.delta);
          const delta = field.push(part.delta);
          if (delta) stream.onDelta(delta);
        } else if (part.type === 'reasoning-delta') reasoning.push(part.delta);
        else if (part.type === 'finish') usage = part.usage;
        else if (part.type === 'error') throw part.error;
      }
    } finally {
      reader.releaseLock();
    }
  });
  return { text: text.join(''), reasoning: reasoning.join(''), usage };
}

/**
 * Runs a model call; once `signal` has fired, whatever the call ended with (an abort error, or a
 * stream ended quietly with the text so far) is no reply, and parsing it would re-ask the model
 * after the caller left: an AbortedError instead.
 */
async function whenAborted<T>(signal: AbortSignal | undefined, call: () => PromiseLike<T>): Promise<T> {
  try {
    const result = await call();
    if (signal?.aborted) throw new AbortedError(undefined, { cause: signal.reason });
    return result;
  } catch (error) {
    if (signal?.aborted && !AbortedError.isInstance(error))
      throw new AbortedError(undefined, { cause: signal.reason });
    throw error;
  }
}

/** The system prompt and text turns as the model interface takes them. */
function toPrompt(system: string, messages: readonly TextMessage[]): LanguageModelV3Prompt {
  return [
    { role: 'system', content: system },
    ...messages.map(({ role, content }) => ({ role, content: [{ type: 'text' as const, text: content }] })),
  ];
}

function joinParts(content: readonly LanguageModelV3Content[], type: 'text' | 'reasoning'): string {
  let joined = '';
  for (const part of content) if (part.type === type) joined += part.text;
  return joined;
}

/** The totals the rest of the code counts; undefined where the server reported none. */
function modelUsage(usage: LanguageModelV3Usage | undefined): ModelUsage {
  return { inputTokens: usage?.inputTokens.total, outputTokens: usage?.outputTokens.total };
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
  const sent = [options.system, ...options.messages.map((message) => message.content)];
  const { usage, estimated } = reportedUsage({ usage: input.usage, sent, text });
  return { text, reasoning: input.reasoning ?? '', usage, estimated, ms: Math.round(input.ms) };
}

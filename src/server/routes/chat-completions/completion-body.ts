import type { DeepSearchRuntime } from '../../../runtime/create-runtime.js';
import { answerRequest } from '../../answers/answer-request.js';
import { describeProgress } from '../../answers/progress-reasoning.js';
import { shiftCitations, type UrlCitation } from '../../answers/url-citations.js';
import { clientRedactorOf } from '../../http/client-redactor.js';
import type { ChatRunRequest } from '../../run-request/run-request.js';
import { type CompletionIdentity, type OpenAiUsage, toOpenAiUsage } from './completion-chunks.js';

export interface ChatCompletionBody {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  system_fingerprint: null;
  choices: Array<{
    index: 0;
    message: {
      role: 'assistant';
      content: string;
      refusal: null;
      annotations: UrlCitation[];
      reasoning_content?: string;
    };
    logprobs: null;
    finish_reason: 'stop';
  }>;
  usage: OpenAiUsage;
  deepsearch: Record<string, unknown>;
}

/** Runs the request and returns the whole `chat.completion` object. */
export async function completeChat(input: {
  runtime: DeepSearchRuntime;
  request: ChatRunRequest;
  identity: CompletionIdentity;
  signal: AbortSignal;
}): Promise<ChatCompletionBody> {
  const { runtime, request, identity, signal } = input;
  const progress: string[] = [];
  const content = await answerRequest({
    runtime,
    request,
    signal,
    onEvent: (event) => {
      // Progress quotes upstream text (errors, the model's reasoning): no configured key goes out.
      const text = describeProgress(event);
      if (text) progress.push(clientRedactorOf(runtime)(text));
    },
  });
  const reasoning = progress.join('');
  const prefix = request.thinkTags && reasoning ? `<think>\n${reasoning}\n</think>\n\n` : '';
  const message = {
    role: 'assistant' as const,
    content: prefix + content.text,
    refusal: null,
    annotations: shiftCitations(content.annotations, prefix.length),
    ...(request.thinkTags || request.mode === 'direct' ? {} : { reasoning_content: reasoning }),
  };
  return {
    ...identity,
    object: 'chat.completion',
    system_fingerprint: null,
    choices: [{ index: 0, message, logprobs: null, finish_reason: 'stop' }],
    usage: toOpenAiUsage(content.usage),
    deepsearch: content.details,
  };
}

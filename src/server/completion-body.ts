import type { DeepSearchResult } from '../agent/agent-types.js';
import type { DeepSearchRuntime } from '../runtime.js';
import { type CompletionIdentity, type OpenAiUsage, toOpenAiUsage } from './completion-chunks.js';
import { askForRequest, completionContent } from './completion-content.js';
import { describeProgress } from './progress-reasoning.js';
import type { RunRequest } from './run-request.js';
import type { UrlCitation } from './url-citations.js';

/** What deepsearch adds to OpenAI's objects: clients that do not know the field ignore it. */
export function deepsearchDetails(result: DeepSearchResult) {
  return {
    confidence: result.confidence,
    confidence_reason: result.confidenceReason,
    origin: result.origin,
    references: result.references,
    steps: result.steps,
    duration_ms: result.durationMs,
    visited_urls: result.visitedUrls,
    warnings: result.warnings,
  };
}

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
  deepsearch: ReturnType<typeof deepsearchDetails>;
}

/** Runs the deep search and returns the whole `chat.completion` object. */
export async function completeChat(input: {
  runtime: DeepSearchRuntime;
  request: RunRequest;
  identity: CompletionIdentity;
  signal: AbortSignal;
}): Promise<ChatCompletionBody> {
  const { runtime, request, identity, signal } = input;
  const progress: string[] = [];
  const result = await askForRequest({
    runtime,
    request,
    signal,
    onEvent: (event) => {
      const text = describeProgress(event);
      if (text) progress.push(text);
    },
  });
  const reasoning = progress.join('');
  const prefix = request.thinkTags && reasoning ? `<think>\n${reasoning}\n</think>\n\n` : '';
  const content = await completionContent({ runtime, request, result, offset: prefix.length, signal });
  const message = {
    role: 'assistant' as const,
    content: prefix + content.text,
    refusal: null,
    annotations: content.annotations,
    ...(request.thinkTags ? {} : { reasoning_content: reasoning }),
  };
  return {
    ...identity,
    object: 'chat.completion',
    system_fingerprint: null,
    choices: [{ index: 0, message, logprobs: null, finish_reason: 'stop' }],
    usage: toOpenAiUsage(content.usage),
    deepsearch: deepsearchDetails(result),
  };
}

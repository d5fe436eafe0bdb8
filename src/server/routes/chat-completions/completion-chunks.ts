import type { TokenUsage } from '../../../providers/spec/llm-client.js';
import type { UrlCitation } from '../../answers/url-citations.js';

export interface OpenAiUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** Total is recomputed so prompt + completion = total holds whatever the providers reported. */
export function toOpenAiUsage(usage: TokenUsage): OpenAiUsage {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

export interface CompletionIdentity {
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  refusal?: null;
  annotations?: UrlCitation[];
}

export type ChunkFactory = ReturnType<typeof createChunkFactory>;

/**
 * The `chat.completion.chunk` objects of one stream, shaped as OpenAI sends them: one choice per
 * chunk, `usage: null` on every chunk and the totals in a last chunk without choices when the
 * client asked for usage. The finish chunk carries the usage whether asked for or not: clients
 * that never send stream_options (the AI SDK's openai-compatible provider) read it there.
 */
export function createChunkFactory(identity: CompletionIdentity, options: { includeUsage: boolean }) {
  const base = () => ({
    id: identity.id,
    object: 'chat.completion.chunk' as const,
    created: identity.created,
    model: identity.model,
    system_fingerprint: null,
  });
  const usageField = (usage: OpenAiUsage | null) => (options.includeUsage ? { usage } : {});
  return {
    delta(delta: ChunkDelta, finishReason: 'stop' | 'length' | null = null) {
      return {
        ...base(),
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...usageField(null),
      };
    },
    /**
     * The chunk with `finish_reason`, carrying the citations (moved here, not repeated: a client
     * that also reads them on other chunks would show them twice) and the usage.
     */
    finish(input: { annotations: UrlCitation[]; usage: OpenAiUsage }) {
      const delta: ChunkDelta = input.annotations.length > 0 ? { annotations: input.annotations } : {};
      return {
        ...base(),
        choices: [{ index: 0, delta, logprobs: null, finish_reason: 'stop' as const }],
        usage: input.usage,
      };
    },
    usage(usage: OpenAiUsage) {
      return { ...base(), choices: [], ...usageField(usage) };
    },
  };
}

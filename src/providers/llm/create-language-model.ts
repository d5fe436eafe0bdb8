import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { type ResolvedLlmSettings, requireApiKey } from '../../config/resolve-llm-settings.js';

export interface LanguageModelDeps {
  fetch?: typeof globalThis.fetch;
}

/** The provider name the openai-compatible model is created under; its provider options key. */
export const compatibleProviderName = 'openaiCompatible';

/**
 * Makes the AI SDK model for one role. The key is checked here, when the role is first used,
 * so commands that never call an LLM never need one.
 */
export function createLanguageModel(
  settings: ResolvedLlmSettings,
  deps: LanguageModelDeps = {},
): LanguageModelV3 {
  const apiKey = requireApiKey(settings);
  const common = { fetch: deps.fetch, ...(settings.baseURL ? { baseURL: settings.baseURL } : {}) };
  switch (settings.provider) {
    case 'openai':
      return createOpenAI({ ...common, apiKey }).chat(settings.model);
    case 'anthropic':
      return createAnthropic({ ...common, apiKey })(settings.model);
    case 'google':
      return createGoogleGenerativeAI({ ...common, apiKey })(settings.model);
    case 'openai-compatible':
      return createOpenAICompatible({
        name: compatibleProviderName,
        baseURL: settings.baseURL!,
        apiKey,
        fetch: deps.fetch,
        includeUsage: true,
        supportsStructuredOutputs: true,
      })(settings.model);
  }
}

/** Every provider validates what we parse; strict server-side schemas would reject optional fields. */
export const relaxedSchemaProviderOptions = {
  openai: { strictJsonSchema: false },
  [compatibleProviderName]: { strictJsonSchema: false },
} as const;

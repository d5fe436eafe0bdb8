import type { LanguageModelV3, LanguageModelV3Middleware } from '@ai-sdk/provider';
import { type ResolvedLlmSettings, requireApiKey } from '../../config/resolve-llm-settings.js';
import { withSafeRedirects } from '../../platform/http/redirect-safe-fetch.js';

export interface LanguageModelDeps {
  fetch?: typeof globalThis.fetch;
  /** The prompt budget (llm.contextTokens): the embedded model sizes its window for it. */
  contextTokens?: number;
}

/** The provider name the openai-compatible model is created under; its provider options key. */
export const compatibleProviderName = 'openaiCompatible';

/**
 * Official endpoints, passed explicitly: without a baseURL the SDKs would read OPENAI_BASE_URL or
 * ANTHROPIC_BASE_URL from the environment behind the config's back (OPENAI_BASE_URL is a setting,
 * llm.openaiBaseURL, so it arrives here as settings.baseURL).
 */
const defaultBaseUrls: Readonly<Record<'openai' | 'anthropic' | 'google', string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};

/**
 * Makes the AI SDK model for one role. The key is checked here, when the role is first used,
 * so commands that never call an LLM never need one. Only the vendor SDK in use is loaded: each
 * costs about a tenth of a second of start-up.
 */
export async function createLanguageModel(
  settings: ResolvedLlmSettings,
  deps: LanguageModelDeps = {},
): Promise<LanguageModelV3> {
  const apiKey = requireApiKey(settings);
  if (settings.provider === 'local-embedded') {
    // node-llama-cpp and the model load on the first call, never for a run that does not use them.
    const { createEmbeddedLanguageModel, embeddedEngineFor } = await import('./embedded-language-model.js');
    const maxContextTokens = deps.contextTokens ?? 16_384;
    return createEmbeddedLanguageModel({
      settings,
      engine: () => embeddedEngineFor(settings, { maxContextTokens }),
    });
  }
  // No call starts after the run was cancelled, and x-api-key / x-goog-api-key do not follow a
  // redirect to another origin (fetch itself only drops Authorization).
  deps = { fetch: withSafeRedirects(deps.fetch ?? globalThis.fetch) };
  switch (settings.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({
        fetch: deps.fetch,
        apiKey,
        baseURL: settings.baseURL ?? defaultBaseUrls.openai,
      }).chat(settings.model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({
        fetch: deps.fetch,
        apiKey,
        baseURL: settings.baseURL ?? defaultBaseUrls.anthropic,
      })(settings.model);
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google');
      return createGoogleGenerativeAI({
        fetch: deps.fetch,
        apiKey,
        baseURL: settings.baseURL ?? defaultBaseUrls.google,
      })(settings.model);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
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
}

/** Every provider validates what we parse; strict server-side schemas would reject optional fields. */
export const relaxedSchemaProviderOptions = {
  openai: { strictJsonSchema: false },
  [compatibleProviderName]: { strictJsonSchema: false },
} as const;

/** The relaxed schema options on every structured request, as middleware (the call's own options win). */
export const relaxedSchemaMiddleware: LanguageModelV3Middleware = {
  specificationVersion: 'v3',
  transformParams: async ({ params }) => ({
    ...params,
    providerOptions: { ...relaxedSchemaProviderOptions, ...params.providerOptions },
  }),
};

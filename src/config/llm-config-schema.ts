import * as z from 'zod';
import { llmRoles } from './config-ids.js';
import { providerName, sectionDefaults, setting, urlSetting } from './setting.js';

export const llmProviderIds = [
  'openai',
  'openai-compatible',
  'anthropic',
  'google',
  'local-embedded',
] as const;
export type LlmProviderId = (typeof llmProviderIds)[number];

export const structuredOutputModes = ['auto', 'json-schema', 'prompt'] as const;
export type StructuredOutputMode = (typeof structuredOutputModes)[number];

/**
 * Settings a role may override; anything unset falls back to the top-level llm settings. The
 * metadata is the top-level setting's (`llm.model`, DEEPSEARCH_LLM_MODEL): each role's variable and
 * flag are derived from it (DEEPSEARCH_LLM_<ROLE>_MODEL, --llm-<role>-model).
 */
export const llmRoleSettingsSchema = z
  .object({
    provider: setting(providerName.optional(), {
      env: 'DEEPSEARCH_LLM_PROVIDER',
      flag: 'llm-provider',
      description: 'openai | openai-compatible | anthropic | google | local-embedded (inferred when unset)',
    }),
    baseURL: setting(urlSetting.optional(), {
      env: 'DEEPSEARCH_LLM_BASE_URL',
      flag: 'llm-base-url',
      description: 'base URL of an OpenAI-compatible server, e.g. http://localhost:11434/v1',
    }),
    model: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_LLM_MODEL',
      flag: 'llm-model',
      description: 'model id',
    }),
    apiKey: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_LLM_API_KEY',
      flag: 'llm-api-key',
      secret: true,
      description: 'API key for the LLM (overrides the vendor variables below)',
    }),
    temperature: setting(z.number().min(0).max(2).optional(), {
      env: 'DEEPSEARCH_LLM_TEMPERATURE',
      flag: 'llm-temperature',
      description: 'sampling temperature for every role unless a role sets its own',
    }),
    maxOutputTokens: setting(z.number().int().positive().optional(), {
      env: 'DEEPSEARCH_LLM_MAX_OUTPUT_TOKENS',
      flag: 'llm-max-output-tokens',
      description: 'cap on tokens generated per call',
    }),
    structuredOutput: z.enum(structuredOutputModes).optional(),
  })
  .strict();
export type LlmRoleSettings = z.infer<typeof llmRoleSettingsSchema>;

/** The in-process model (`llm.provider: "local-embedded"`, node-llama-cpp); see providers/llm/embedded/. */
export const embeddedGpuChoices = ['auto', 'cpu', 'metal', 'cuda', 'vulkan'] as const;
export const embeddedLlmSchema = z
  .object({
    threads: setting(z.number().int().min(1).max(256).optional(), {
      env: 'DEEPSEARCH_LLM_THREADS',
      flag: 'llm-threads',
      description:
        'CPU threads of the embedded model (default: math cores − 1, at least 1, fewer if the speed probe sees them stall)',
    }),
    gpu: setting(z.enum(embeddedGpuChoices).default('auto'), {
      env: 'DEEPSEARCH_LLM_GPU',
      description: 'auto | cpu | metal | cuda | vulkan: where the embedded model runs',
    }),
    modelsDir: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_MODELS_DIR',
      description: "folder of downloaded models (default: models/ in the user's data directory)",
    }),
    // A mirror or an air-gapped copy of the model list.
    manifest: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_MODEL_MANIFEST',
      description:
        'JSON file listing the models deepsearch model pull knows by name (default: the built-in list)',
    }),
  })
  .strict();

export type EmbeddedLlmSettings = z.infer<typeof embeddedLlmSchema>;

export const llmConfigSchema = llmRoleSettingsSchema
  .extend({
    structuredOutput: setting(z.enum(structuredOutputModes).default('auto'), {
      env: 'DEEPSEARCH_LLM_STRUCTURED_OUTPUT',
      flag: 'llm-structured-output',
      description:
        'auto | json-schema | prompt (auto falls back to prompt if the server rejects JSON schema)',
    }),
    // The default suits a 32k-context local model.
    contextTokens: setting(z.number().int().min(2048).default(32_768), {
      env: 'DEEPSEARCH_LLM_CONTEXT_TOKENS',
      flag: 'llm-context-tokens',
      description: 'prompt budget per call in tokens',
    }),
    // The OpenAI SDK's own endpoint variable (a gateway, Azure, a proxy): the openai provider's
    // endpoint when llm.baseURL is unset, as the SDK would use it. Never makes a model
    // openai-compatible on its own, as llm.baseURL does.
    openaiBaseURL: setting(urlSetting.optional(), {
      env: 'OPENAI_BASE_URL',
      description: "the openai provider's endpoint when llm.baseURL is unset, as the OpenAI SDK reads it",
    }),
    timeoutSeconds: setting(z.number().positive().default(120), {
      env: 'DEEPSEARCH_LLM_TIMEOUT',
      flag: 'llm-timeout',
      description: 'seconds before one LLM call is abandoned',
    }),
    maxRetries: setting(z.number().int().min(0).max(10).default(2), {
      env: 'DEEPSEARCH_LLM_MAX_RETRIES',
      flag: 'llm-max-retries',
      description: 'retries on 408/409/429/5xx and network errors',
    }),
    // A streamed reply costs about twice the CPU of a whole one (the SDK's web streams and its
    // per-chunk parsing): past this many calls at once, a busy server asks for whole replies.
    maxStreamingCalls: setting(z.number().int().min(0).max(100_000).default(32), {
      env: 'DEEPSEARCH_LLM_MAX_STREAMING_CALLS',
      flag: 'llm-max-streaming-calls',
      description:
        'LLM calls in flight past which replies are asked whole, not streamed (the answer draft then comes in one piece); 0: never stream',
    }),
    roles: setting(z.partialRecord(z.enum(llmRoles), llmRoleSettingsSchema).default({}), {
      description: 'per-role overrides, e.g. { "evaluator": { "model": "qwen2.5:7b", "temperature": 0 } }',
    }),
    embedded: embeddedLlmSchema.default(sectionDefaults(embeddedLlmSchema)),
  })
  .strict();

/** Vendor keys from the vendors' usual variables; used when the provider matches. */
export const vendorKeysSchema = z
  .object({
    openai: setting(z.string().min(1).optional(), {
      env: 'OPENAI_API_KEY',
      secret: true,
      description: 'OpenAI key (provider openai)',
    }),
    anthropic: setting(z.string().min(1).optional(), {
      env: 'ANTHROPIC_API_KEY',
      secret: true,
      description: 'Anthropic key (provider anthropic)',
    }),
    google: setting(z.string().min(1).optional(), {
      env: 'GEMINI_API_KEY',
      envAliases: ['GOOGLE_GENERATIVE_AI_API_KEY'],
      secret: true,
      description: 'Google Gemini key (provider google)',
    }),
    jina: setting(z.string().min(1).optional(), {
      env: 'JINA_API_KEY',
      secret: true,
      description: 'Jina key (embedding or rerank provider jina)',
    }),
    cohere: setting(z.string().min(1).optional(), {
      env: 'COHERE_API_KEY',
      envAliases: ['CO_API_KEY'],
      secret: true,
      description: 'Cohere key (rerank provider cohere)',
    }),
  })
  .strict();

import { ConfigError } from '../core/errors/index.js';
import { settingHint } from './config-origins.js';
import type {
  DeepSearchConfig,
  EmbeddedLlmSettings,
  LlmProviderId,
  LlmRole,
  StructuredOutputMode,
} from './config-schema.js';

/** Everything needed to make one role's model, with inheritance and provider inference applied. */
export interface ResolvedLlmSettings {
  role: LlmRole;
  provider: LlmProviderId;
  model: string;
  baseURL: string | undefined;
  apiKey: string | undefined;
  temperature: number | undefined;
  maxOutputTokens: number | undefined;
  structuredOutput: StructuredOutputMode;
  timeoutMs: number;
  maxRetries: number;
  /** How the in-process model runs (provider local-embedded only). */
  embedded: EmbeddedLlmSettings;
}

export const defaultModels: Readonly<Record<Exclude<LlmProviderId, 'openai-compatible'>, string>> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-haiku-4-5',
  google: 'gemini-2.5-flash',
  // The model `deepsearch model use` chose, else the manifest's default (embedded/model-store.ts).
  'local-embedded': 'default',
};

/**
 * A CPU reads an agent prompt for minutes, and a call may wait its turn behind other runs' calls
 * for the one in-process model: the embedded model is given at least this long per call.
 */
const embeddedMinimumTimeoutSeconds = 1800;

/** Judges and analysts work best near-deterministic; the agent needs some variety to explore. */
const roleTemperatures: Readonly<Record<LlmRole, number>> = {
  agent: 0.6,
  beast: 0.6,
  evaluator: 0.1,
  analyzer: 0.3,
  rewriter: 0.3,
  // Research mode: plans and coverage checks want precision, writing wants factual wording.
  planner: 0.1,
  librarian: 0.2,
  writer: 0.2,
  // Grading should not vary between two runs of the same answers.
  judge: 0,
};

const vendorKeyVariables: Readonly<Record<LlmProviderId, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GEMINI_API_KEY',
  'openai-compatible': 'DEEPSEARCH_LLM_API_KEY',
  'local-embedded': 'DEEPSEARCH_LLM_API_KEY',
};

export const noLlmMessage =
  'no LLM configured: set DEEPSEARCH_LLM_BASE_URL and DEEPSEARCH_LLM_MODEL for a local or OpenAI-compatible ' +
  'server (Ollama, llama.cpp, vLLM, LM Studio), or one of OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY; ' +
  'or run deepsearch init to write a config file';

function inferProvider(config: DeepSearchConfig, baseURL: string | undefined): LlmProviderId {
  if (baseURL) return 'openai-compatible';
  if (config.llm.apiKey || config.keys.openai) return 'openai';
  if (config.keys.anthropic) return 'anthropic';
  if (config.keys.google) return 'google';
  throw new ConfigError(noLlmMessage, { code: 'config_missing_llm' });
}

export function resolveLlmSettings(config: DeepSearchConfig, role: LlmRole): ResolvedLlmSettings {
  const top = config.llm;
  const own = top.roles[role] ?? {};
  const topProvider = (top.provider as LlmProviderId | undefined) ?? inferProvider(config, top.baseURL);
  const ownProvider = own.provider as LlmProviderId | undefined;
  const provider = ownProvider ?? (own.baseURL ? 'openai-compatible' : topProvider);
  // A role that switches provider must not inherit the other provider's endpoint, key or model.
  const inherits = provider === topProvider;
  const baseURL =
    own.baseURL ??
    (inherits ? top.baseURL : undefined) ??
    (provider === 'openai' ? top.openaiBaseURL : undefined);
  const model = own.model ?? (inherits ? top.model : undefined) ?? defaultModelFor(config, provider, role);
  const apiKey = own.apiKey ?? (inherits ? top.apiKey : undefined) ?? vendorKey(config, provider);
  if (provider === 'openai-compatible' && !baseURL) {
    throw new ConfigError(
      `the openai-compatible LLM provider needs a server address: set ${settingHint(config, { path: 'llm.baseURL', because: 'llm.provider' })} ` +
        '(e.g. http://localhost:11434/v1 for Ollama)',
      { code: 'config_missing_base_url' },
    );
  }
  return {
    role,
    provider,
    model,
    baseURL,
    apiKey,
    temperature: own.temperature ?? top.temperature ?? roleTemperatures[role],
    maxOutputTokens: own.maxOutputTokens ?? top.maxOutputTokens,
    structuredOutput: own.structuredOutput ?? top.structuredOutput,
    timeoutMs:
      (provider === 'local-embedded'
        ? Math.max(top.timeoutSeconds, embeddedMinimumTimeoutSeconds)
        : top.timeoutSeconds) * 1000,
    maxRetries: top.maxRetries,
    embedded: top.embedded,
  };
}

/** Called when a model is first used, so `--help` and non-LLM commands never need a key. */
export function requireApiKey(settings: ResolvedLlmSettings): string | undefined {
  if (settings.apiKey) return settings.apiKey;
  if (settings.provider === 'openai-compatible' || settings.provider === 'local-embedded') return undefined;
  const roleVariable = `DEEPSEARCH_LLM_${settings.role.toUpperCase()}_API_KEY`;
  throw new ConfigError(
    `missing API key for the ${settings.provider} LLM provider: set ${vendorKeyVariables[settings.provider]} ` +
      `(or DEEPSEARCH_LLM_API_KEY, or ${roleVariable} for the ${settings.role} role only)`,
    { code: 'config_missing_key' },
  );
}

function defaultModelFor(config: DeepSearchConfig, provider: LlmProviderId, role: LlmRole): string {
  if (provider !== 'openai-compatible') return defaultModels[provider];
  throw new ConfigError(
    `no model set for the OpenAI-compatible server: set ${settingHint(config, { path: 'llm.model', because: 'llm.baseURL' })} to a model it ` +
      `serves, e.g. qwen2.5:7b${role === 'agent' ? '' : ` (or DEEPSEARCH_LLM_${role.toUpperCase()}_MODEL)`}`,
    { code: 'config_missing_model' },
  );
}

function vendorKey(config: DeepSearchConfig, provider: LlmProviderId): string | undefined {
  if (provider === 'openai-compatible' || provider === 'local-embedded') return undefined;
  return config.keys[provider];
}

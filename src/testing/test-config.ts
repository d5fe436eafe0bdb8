import type { DeepSearchConfig } from '../config/config-schema.js';
import { loadConfig } from '../config/load-config.js';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** A valid config for tests: an OpenAI-compatible LLM that is never really called. */
export function createTestConfig(overrides: DeepPartial<DeepSearchConfig> = {}): DeepSearchConfig {
  const base = {
    llm: {
      provider: 'openai-compatible',
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'scripted-model',
      maxRetries: 0,
    },
    search: { provider: 'fake' },
    reader: { provider: 'fake', allowPrivateNetwork: true },
    // Scripted tests list every LLM call; the rewriter's is added only where a test opts in.
    retrieval: { queryRewrite: false },
    // Tests never write to the user's data directory; cache tests pass their own folder.
    cache: { enabled: false },
  };
  return loadConfig({ file: mergeDeep(base, overrides) });
}

function mergeDeep(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = out[key];
    const bothObjects =
      typeof value === 'object' && value !== null && !Array.isArray(value) && typeof current === 'object';
    out[key] = bothObjects
      ? mergeDeep(current as Record<string, unknown>, value as Record<string, unknown>)
      : value;
  }
  return out;
}

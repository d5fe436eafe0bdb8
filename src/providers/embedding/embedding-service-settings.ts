/** What every embedding service takes; the registry fills these from the config. */
export interface EmbeddingServiceSettings {
  baseURL?: string;
  model?: string;
  apiKey?: string;
  /** Names the variable to set when the key is missing or rejected. */
  keyHint?: string;
  dimensions?: number;
  batchSize?: number;
  lateChunking?: boolean;
  timeoutMs?: number;
  maxRetries?: number;
  fetch?: typeof globalThis.fetch;
}

export const embeddingDefaults = { batchSize: 64, timeoutMs: 30_000, maxRetries: 2 } as const;

/** The embedInBatches options every service takes from its settings. */
export function batchOptions(
  providerId: string,
  settings: EmbeddingServiceSettings,
  options: { signal?: AbortSignal },
) {
  return {
    providerId,
    batchSize: settings.batchSize ?? embeddingDefaults.batchSize,
    dimensions: settings.dimensions,
    maxRetries: settings.maxRetries ?? embeddingDefaults.maxRetries,
    signal: options.signal,
  };
}

/** The requestJson options every service shares. */
export function requestOptions(
  providerId: string,
  settings: EmbeddingServiceSettings,
  options: { signal?: AbortSignal; keyHint: string },
) {
  return {
    providerId,
    fetch: settings.fetch,
    timeoutMs: settings.timeoutMs ?? embeddingDefaults.timeoutMs,
    signal: options.signal,
    keyHint: options.keyHint,
  };
}

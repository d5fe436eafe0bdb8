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

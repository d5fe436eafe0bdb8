/** What an embedding is for; services that take a task (Jina, Google) embed differently for each. */
export type EmbeddingTask = 'query' | 'passage' | 'similarity';

export interface EmbedOptions {
  task: EmbeddingTask;
  /**
   * The texts are consecutive chunks of one document: services that support it (Jina's
   * `late_chunking`) embed each chunk with the context of the others.
   */
  lateChunking?: boolean;
  signal?: AbortSignal;
}

export interface EmbeddingResult {
  /**
   * One vector per input text, in input order. An item that could not be embedded (empty text,
   * a batch that failed after retries) is undefined; it never shifts the others.
   */
  vectors: Array<Float32Array | undefined>;
  /** Batch failures that left items undefined (authentication errors are thrown instead). */
  failures: Error[];
}

export interface EmbeddingProvider {
  /** The version of this interface the provider implements (see check-provider.ts). */
  readonly specificationVersion: 'v1';
  readonly id: string;
  readonly model: string;
  /** True for the built-in lexical fallback, which needs no service. */
  readonly builtin: boolean;
  embed(texts: readonly string[], options: EmbedOptions): Promise<EmbeddingResult>;
}

export interface RerankOptions {
  signal?: AbortSignal;
}

export interface Reranker {
  /** The version of this interface the reranker implements (see check-provider.ts). */
  readonly specificationVersion: 'v1';
  readonly id: string;
  readonly model: string;
  /** True for the built-in lexical fallback, which needs no service. */
  readonly builtin: boolean;
  /**
   * Relevance of each document to the query, in [0, 1], in input order (a document the service
   * left out scores 0). Never reorders: callers sort.
   */
  rerank(query: string, documents: readonly string[], options?: RerankOptions): Promise<number[]>;
}

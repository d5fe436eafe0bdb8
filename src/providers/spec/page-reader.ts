import type { Page } from '../../extraction/page.js';

export type { Page, PageLink } from '../../extraction/page.js';

export interface ReadOptions {
  signal?: AbortSignal;
}

export interface PageReader {
  /** The version of this interface the reader implements (see check-provider.ts). */
  readonly specificationVersion: 'v1';
  readonly id: string;
  read(url: string, options?: ReadOptions): Promise<Page>;
  /**
   * Loads what the first read needs (libraries, connections) ahead of it, so a run can do that
   * while its first LLM call is in flight. Optional; never throws.
   */
  prepare?(): Promise<void>;
  /**
   * A read costs nothing but bandwidth (no per-request fee), so the agent may read the best
   * candidate pages while the model is still choosing. Paid readers leave this unset.
   */
  readonly freeToPrefetch?: boolean;
}

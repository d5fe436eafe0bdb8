import type { Reference } from '../../events/deep-search-result.js';

/** An answer as a run gives it: markdown with [^n] footnotes, and the references they point to. */
export interface CitedAnswer {
  answer: string;
  references: readonly Reference[];
}

/** Where a claim's citation points: the page and the quote read from it. */
export interface ClaimSource {
  url: string;
  quote: string;
  title?: string;
}

/** A sentence (or clause) of an answer, without its footnote marks, with the sources it cites. */
export interface AnswerClaim {
  text: string;
  sources: ClaimSource[];
}

export type ClaimChangeKind = 'unchanged' | 'new' | 'removed' | 'changed';

/** What differs between a claim before and after: the values themselves, as written. */
export interface ClaimDifference {
  kind: 'number' | 'date' | 'name' | 'status';
  before: string[];
  after: string[];
}

/**
 * One claim of the newer answer matched with one of the older (or with none). `unchanged` and
 * `changed` have both sides; `new` only `after`; `removed` only `before`.
 */
export interface ClaimChange {
  kind: ClaimChangeKind;
  before?: AnswerClaim;
  after?: AnswerClaim;
  /** For `changed`: the numbers, dates, names or status words that differ. */
  differences?: ClaimDifference[];
}

/** What the matcher may use beyond the words: both are optional and asked only when needed. */
export interface CompareOptions {
  /** Embeddings of texts (the configured embedding service), one vector per text (undefined: none for it). */
  embed?: (texts: string[]) => Promise<ReadonlyArray<ArrayLike<number> | undefined>>;
  /** The LLM's judgement on a pair that stays ambiguous: do both sentences state the same fact? */
  judge?: (before: string, after: string) => Promise<'same' | 'changed' | 'different'>;
  signal?: AbortSignal;
}

import type { Confidence } from '../events/deep-search-result.js';

export const datasetFormats = ['simpleqa', 'frames', 'hotpotqa', 'browsecomp-plus', 'jsonl'] as const;
export type DatasetFormat = (typeof datasetFormats)[number];

/** A paragraph of a HotpotQA question's context: what `--offline-corpus` puts in the knowledge base. */
export interface ContextParagraph {
  title: string;
  text: string;
}

/** One benchmark question, whatever file it came from. */
export interface EvalQuestion {
  /** Stable across runs of the same file: the dataset's own id, else the row number. */
  id: string;
  question: string;
  /** The gold answer the judge compares against. */
  answer: string;
  /** HotpotQA: the question's context paragraphs and the titles of its supporting facts. */
  context?: ContextParagraph[];
  supportingTitles?: string[];
}

export const grades = ['correct', 'incorrect', 'not_attempted'] as const;
export type Grade = (typeof grades)[number];

export interface TokenCount {
  prompt: number;
  completion: number;
  total: number;
}

export interface EvalReference {
  url: string;
  title: string;
  quote: string;
  /** True when the model's own quote was found in the text read; false when a matching sentence replaced it. */
  verified: boolean;
}

/** One line of the results file. */
export interface EvalRecord {
  id: string;
  question: string;
  expected: string;
  /** 'graded' once the judge has spoken; 'error' when the run or the judge failed (re-run by --resume). */
  status: 'graded' | 'error';
  answer: string | null;
  grade: Grade | null;
  rationale: string | null;
  confidence: Confidence | null;
  steps: number;
  tokens: TokenCount;
  /** Dollars for the run's LLM calls; null when a model used has no price in the config. */
  costUsd: number | null;
  durationMs: number;
  references: EvalReference[];
  judge: { model: string; tokens: TokenCount; costUsd: number | null } | null;
  error?: string;
  finishedAt: string;
}

import type { AnswerOrigin, Confidence, Reference } from '../../events/deep-search-result.js';

/** The answer the run ends with, and how sure it is. */
export interface FinalAnswer {
  answer: string;
  references: Reference[];
  origin: AnswerOrigin;
  confidence: Confidence;
  confidenceReason: string;
}

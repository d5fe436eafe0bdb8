import type { Reference } from '../../events/deep-search-result.js';
import type { AnswerPayload } from '../actions/answer-action.js';
import type { AgentState } from '../state/agent-state.js';
import { alignFootnotes } from './format-footnotes.js';
import { verifyReferences } from './verify-references.js';

export interface CitedAnswer {
  answer: string;
  references: Reference[];
  /** References the model gave that could not be verified. */
  dropped: Array<{ url: string; reason: string }>;
}

/** Verifies the model's references and aligns the answer's footnotes with those kept. */
export function citeAnswer(state: AgentState, payload: AnswerPayload): CitedAnswer {
  // A number the run never showed becomes a reference the verifier drops with its reason.
  const proposed = payload.references.map((reference) => ({
    url: state.sourceNumbers.resolve(reference.source) ?? `source ${reference.source}`,
    quote: reference.quote,
  }));
  const verified = verifyReferences(state, payload.text, proposed);
  const aligned = alignFootnotes(payload.text, verified.references, verified.renumber);
  return { answer: aligned.answer.trim(), references: aligned.references, dropped: verified.dropped };
}

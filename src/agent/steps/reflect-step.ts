import type { StepOutcome } from '../actions/action-definition.js';
import type { RunContext } from '../run-context.js';

const maxNewQuestionsPerStep = 3;

/**
 * Queues the sub-questions never asked before, followed by the original question. Nothing new
 * switches reflect off for the next step.
 */
export function runReflectStep(
  context: RunContext,
  input: { question: string; questions: string[] },
): StepOutcome {
  const added = context.state.gaps.add(input.questions.slice(0, maxNewQuestionsPerStep));
  if (added.length === 0) {
    const what = 'every sub-question proposed was asked before';
    return {
      note: `nothing new: ${what}; search for one of them, read a page, or answer`,
      disableNext: true,
      noProgress: what,
    };
  }
  context.emit({ type: 'reflect', step: context.step, questions: added });
  return { note: `identified sub-questions: ${added.map((question) => `"${question}"`).join(', ')}` };
}

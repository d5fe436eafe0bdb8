import type { RunContext } from '../run-context.js';

const maxNewQuestionsPerStep = 3;

/**
 * Queues the sub-questions never asked before, followed by the original question. Nothing new
 * switches reflect off for the next step.
 */
export function runReflectStep(context: RunContext, input: { question: string; questions: string[] }): void {
  const { state } = context;
  const added = state.gaps.add(input.questions.slice(0, maxNewQuestionsPerStep));
  if (added.length === 0) state.disabled.add('reflect');
  else context.emit({ type: 'reflect', step: context.step, questions: added });
  state.diary.add({
    step: context.step,
    action: 'reflect',
    question: input.question,
    note: added.length
      ? `identified sub-questions: ${added.map((question) => `"${question}"`).join(', ')}`
      : 'proposed only sub-questions already asked',
  });
}

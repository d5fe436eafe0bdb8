import type { StreamTextOptions } from '../providers/spec/llm-client.js';
import type { RunContext } from './run-context.js';

/**
 * Streams the answer field of a reply as the model writes it, as draft events: the person sees
 * the answer forming at once, and the final answer (quotes checked, footnotes aligned, judged)
 * follows as `answer-delta` when it is accepted.
 */
export function answerDraft(context: RunContext): StreamTextOptions {
  return {
    // The agent step's answer (nested as its schema asks), or a flat step's and the final answer's.
    path: ['step', 'answer', 'text'],
    otherPaths: [['answer', 'text']],
    onDelta: (delta) => {
      context.budget.markAnswerToken();
      context.emit({ type: 'answer-draft-delta', step: context.step, delta });
    },
    onReset: () =>
      context.emit({
        type: 'answer-draft-reset',
        step: context.step,
        reason: 'the reply was discarded and asked again',
      }),
  };
}

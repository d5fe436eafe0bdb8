import type { StreamTextOptions } from '../providers/spec/llm-client.js';
import type { RunContext } from './run-context.js';

/**
 * Where a reply writes the answer's text: an agent step nested as its schema asks, or a step
 * written flat and the final answer's `{think, answer}`.
 */
export const answerTextPaths = {
  path: ['step', 'answer', 'text'],
  otherPaths: [['answer', 'text']],
} as const satisfies Pick<StreamTextOptions, 'path' | 'otherPaths'>;

/**
 * Streams the answer field of a reply as the model writes it, as draft events: the person sees
 * the answer forming at once, and the final answer (quotes checked, footnotes aligned, judged)
 * follows as `answer-delta` when it is accepted.
 */
export function answerDraft(context: RunContext): StreamTextOptions {
  return {
    ...answerTextPaths,
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

import type { StepOutcome } from '../actions/action-definition.js';
import type { AnswerPayload } from '../actions/answer-action.js';
import { type CitedAnswer, citeAnswer } from '../citations/cite-answer.js';
import { describeQuotes } from '../citations/describe-sources.js';
import { renderDiary } from '../context/render-diary.js';
import { analyzeFailure } from '../evaluation/analyze-failure.js';
import type { EvaluationCriterion } from '../evaluation/criteria.js';
import { evaluateAnswer } from '../evaluation/evaluate-answer.js';
import type { RunContext } from '../run-context.js';
import type { FinalAnswer } from './final-answer.js';
import { isTrivialQuestion } from './trivial-question.js';

export interface AnswerStepInput {
  question: string;
  payload: AnswerPayload;
  /** Criteria for the original question, chosen once and cached by the loop. */
  criteria: () => Promise<EvaluationCriterion[]>;
}

/**
 * An answer to a sub-question becomes knowledge. An answer to the original question must cite
 * verified quotes and pass the evaluator; a rejection is analysed, remembered, and answering is
 * switched off for the next step. Returns the final answer when accepted.
 */
export async function runAnswerStep(context: RunContext, input: AnswerStepInput): Promise<StepOutcome> {
  const { state } = context;
  const cited = citeAnswer(state, input.payload);
  if (input.question !== state.question) {
    return {
      note: `answered the sub-question: ${cited.answer.slice(0, 200)}`,
      knowledge: [
        {
          type: 'qa',
          question: input.question,
          answer: cited.answer,
          urls: cited.references.map((reference) => reference.url),
          step: context.step,
        },
      ],
    };
  }
  const unsourced =
    context.step === 1 && input.payload.references.length === 0 && !context.config.agent.noDirectAnswer;
  if (unsourced && isTrivialQuestion(state.question)) {
    return accepted({
      ...cited,
      origin: 'direct',
      confidence: 'high',
      confidenceReason: 'answered directly: arithmetic, a greeting or a conversion needs no search',
    });
  }
  // A fact from memory (a person, place, date, number, event) is never taken on the model's word.
  if (unsourced) return judgeFromMemory(context, cited, await input.criteria());
  if (cited.references.length === 0) {
    const reason = input.payload.references.length
      ? `none of its quotes could be found in the sources read (${cited.dropped.map((drop) => drop.reason).join('; ')})`
      : 'it cites no sources';
    return reject(
      context,
      cited,
      reason,
      'Cite exact quotes copied from <knowledge>; read pages to get them.',
      false,
    );
  }
  const criteria = await input.criteria();
  const outcome = await evaluateAnswer(context, {
    question: state.question,
    answer: cited.answer,
    references: cited.references,
    criteria,
  });
  if (outcome.pass) {
    return accepted({
      ...cited,
      origin: 'evaluated',
      confidence: 'high',
      confidenceReason: `passed the ${criteria.join(', ')} checks; ${describeQuotes(state, cited.references)}`,
    });
  }
  return reject(
    context,
    cited,
    `${outcome.criterion} check failed: ${outcome.reason}`,
    outcome.improvement,
    true,
  );
}

/** A step-1 answer with no sources to a factual question: the judges decide, and it is never "high". */
async function judgeFromMemory(
  context: RunContext,
  cited: CitedAnswer,
  criteria: EvaluationCriterion[],
): Promise<StepOutcome> {
  const outcome = await evaluateAnswer(context, {
    question: context.state.question,
    answer: cited.answer,
    references: [],
    criteria,
  });
  if (outcome.pass) {
    return accepted({
      ...cited,
      origin: 'direct',
      confidence: 'medium',
      confidenceReason: `answered from memory with no sources; passed the ${criteria.join(', ')} checks`,
    });
  }
  return reject(
    context,
    cited,
    `${outcome.criterion} check failed: ${outcome.reason}`,
    outcome.improvement || 'Search for sources and cite exact quotes from them.',
    true,
  );
}

function accepted(final: FinalAnswer): StepOutcome {
  return { note: 'answered the question; the answer was accepted', final };
}

/** Remembers a rejected answer with what to do differently; answering is off for the next step. */
async function reject(
  context: RunContext,
  cited: CitedAnswer,
  reason: string,
  improvement: string,
  analyse: boolean,
): Promise<StepOutcome> {
  const { state, budget } = context;
  const analysis = analyse
    ? await analyzeFailure(context, {
        question: state.question,
        steps: renderDiary(state.diary.entries, 1500),
        answer: cited.answer,
        reason,
        fallbackImprovement: improvement,
      })
    : { recap: '', blame: reason, improvement };
  budget.failedAttempts++;
  state.failedAttempts.push({
    step: context.step,
    answer: cited.answer,
    references: cited.references,
    reason,
    recap: analysis.recap,
    blame: analysis.blame,
    improvement: analysis.improvement || improvement,
  });
  context.emit({ type: 'answer-draft-reset', step: context.step, reason: `answer rejected: ${reason}` });
  context.emit({
    type: 'answer-rejected',
    step: context.step,
    reason,
    improvement: analysis.improvement || improvement,
    attempts: budget.failedAttempts,
  });
  return { note: `answer rejected: ${reason}`, disableNext: true };
}

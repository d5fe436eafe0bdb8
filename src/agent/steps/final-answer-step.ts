import { AbortedError, isAuthenticationError, isConfigError } from '../../core/errors/index.js';
import type { StopReason } from '../../events/deep-search-result.js';
import { finalAnswerSchema } from '../actions/final-answer-schema.js';
import { answerDraft } from '../answer-draft.js';
import { citeAnswer } from '../citations/cite-answer.js';
import { describeQuotes } from '../citations/describe-sources.js';
import { buildAgentPrompt } from '../context/build-agent-prompt.js';
import { callLlm, type RunContext } from '../run-context.js';
import { extractiveAnswer } from './extractive-answer.js';
import type { FinalAnswer } from './final-answer.js';
import { errorMessage } from './step-errors.js';

const stopDescriptions: Record<StopReason, string> = {
  steps: 'the step budget is spent',
  tokens: 'the token budget is nearly spent',
  time: 'the time budget is nearly spent',
  attempts: 'too many answers were rejected',
  'invalid-output': 'the model kept producing unusable output',
  errors: 'steps kept failing',
  'no-progress': 'the last steps found nothing new (searches repeated, pages read before)',
};

/**
 * Beast mode: one last call that must answer from what is known. If even that fails (or the
 * hard deadline passes), the last rejected answer is returned, marked low confidence.
 */
export async function runFinalAnswerStep(context: RunContext, reason: StopReason): Promise<FinalAnswer> {
  const { state, budget } = context;
  budget.finalAnswerForced = true;
  const description = stopDescriptions[reason];
  const prompt = buildAgentPrompt(context, {
    question: state.question,
    allowed: [],
    finalReason: description,
  });
  context.emit({
    type: 'step-start',
    step: context.step,
    question: state.question,
    allowed: ['answer'],
    promptTokens: prompt.promptTokens,
    final: true,
  });
  try {
    const { object } = await callLlm(context, {
      role: 'beast',
      system: prompt.system,
      prompt: prompt.prompt,
      schema: finalAnswerSchema,
      schemaName: 'final_answer',
      fieldsInPrompt: true,
      streamText: answerDraft(context),
      signal: context.finalSignal,
    });
    context.emit({ type: 'action', step: context.step, action: 'answer', think: object.think });
    const cited = citeAnswer(state, object.answer);
    const quotes = cited.references.length;
    return {
      ...cited,
      origin: 'forced',
      confidence: quotes > 0 ? 'medium' : 'low',
      confidenceReason: `${description}, so the best answer was forced from what was found; ${describeQuotes(state, cited.references)}`,
    };
  } catch (error) {
    if (context.cancelSignal?.aborted) throw new AbortedError(undefined, { cause: error });
    if (isAuthenticationError(error) || isConfigError(error)) throw error;
    context.emit({
      type: 'warning',
      step: context.step,
      message: `final answer failed: ${errorMessage(error)}`,
    });
    return fallbackAnswer(context, description);
  }
}

function fallbackAnswer(context: RunContext, description: string): FinalAnswer {
  const last = context.state.failedAttempts.at(-1);
  if (last) {
    return {
      answer: last.answer,
      references: last.references,
      origin: 'fallback',
      confidence: 'low',
      confidenceReason: `${description} and no final answer could be produced; this is the last rejected attempt (${last.reason})`,
    };
  }
  const extract = extractiveAnswer(context.state, description);
  if (extract) {
    return {
      ...extract,
      origin: 'fallback',
      confidence: 'low',
      confidenceReason: `${description} and the model could not write an answer; these are the passages found that best match the question, quoted from their pages`,
    };
  }
  return {
    answer: 'No answer could be found within the budget.',
    references: [],
    origin: 'fallback',
    confidence: 'low',
    confidenceReason: `${description} before any answer was produced`,
  };
}

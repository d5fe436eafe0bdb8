import { isAuthenticationError, isStructuredOutputError } from '../../errors/index.js';
import type { Reference } from '../agent-types.js';
import { chooseCriteriaPrompt, chooseCriteriaSystemPrompt } from '../prompts/choose-criteria-prompt.js';
import { evaluationPrompt, evaluationSystemPrompt } from '../prompts/evaluation-prompts.js';
import { callLlm, type RunContext } from '../run-context.js';
import {
  criteriaChoiceSchema,
  criteriaFrom,
  type EvaluationCriterion,
  evaluationSchema,
} from './criteria.js';

export interface EvaluationOutcome {
  pass: boolean;
  /** The criterion that failed, if any. */
  criterion?: EvaluationCriterion;
  reason: string;
  improvement: string;
}

/** Decides once per run which criteria the original question's answers are judged on. */
export async function chooseCriteria(context: RunContext, question: string): Promise<EvaluationCriterion[]> {
  try {
    const { object } = await callLlm(context, {
      role: 'evaluator',
      system: chooseCriteriaSystemPrompt,
      prompt: chooseCriteriaPrompt(question),
      schema: criteriaChoiceSchema,
      schemaName: 'evaluation_criteria',
    });
    return criteriaFrom(object);
  } catch (error) {
    if (!isStructuredOutputError(error)) throw error;
    context.emit({
      type: 'warning',
      step: context.step,
      message: 'could not choose criteria; checking definitive only',
    });
    return ['definitive'];
  }
}

/**
 * Judges the answer one criterion at a time, stopping at the first failure (seed 000). A judge
 * whose reply cannot be parsed is skipped with a warning rather than failing a good answer.
 */
export async function evaluateAnswer(
  context: RunContext,
  input: { question: string; answer: string; references: Reference[]; criteria: EvaluationCriterion[] },
): Promise<EvaluationOutcome> {
  const references = input.references
    .map((reference) => `[^${reference.index}] ${reference.url}: "${reference.quote}"`)
    .join('\n');
  for (const criterion of input.criteria) {
    let verdict: { pass: boolean; think: string; improvement: string };
    try {
      const result = await callLlm(context, {
        role: 'evaluator',
        system: evaluationSystemPrompt(criterion, context.today),
        prompt: evaluationPrompt({ question: input.question, answer: input.answer, references }),
        schema: evaluationSchema,
        schemaName: `evaluate_${criterion}`,
      });
      verdict = result.object;
    } catch (error) {
      if (isAuthenticationError(error) || !isStructuredOutputError(error)) throw error;
      context.emit({
        type: 'warning',
        step: context.step,
        message: `the ${criterion} judge gave no usable verdict; skipped`,
      });
      continue;
    }
    context.emit({
      type: 'evaluation',
      step: context.step,
      criterion,
      pass: verdict.pass,
      reason: verdict.think,
    });
    if (!verdict.pass) {
      return { pass: false, criterion, reason: verdict.think, improvement: verdict.improvement };
    }
  }
  return { pass: true, reason: 'all criteria passed', improvement: '' };
}

import type * as z from 'zod';
import { isAuthenticationError, isStructuredOutputError } from '../../core/errors/index.js';
import type { Reference } from '../../events/deep-search-result.js';
import { chooseCriteriaPrompt, chooseCriteriaSystemPrompt } from '../prompts/choose-criteria-prompt.js';
import { evaluationPrompt, evaluationSystemPrompt } from '../prompts/evaluation-prompts.js';
import { callLlm, type RunContext } from '../run-context.js';
import type { AgentState } from '../state/agent-state.js';
import {
  criteriaChoiceExample,
  criteriaChoiceSchema,
  criteriaFrom,
  type EvaluationCriterion,
} from './criteria.js';
import {
  type JudgeReply,
  type JudgeVerdict,
  judgeExamples,
  judgeSchemas,
  judgeVerdict,
} from './judge-schemas.js';

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
      example: criteriaChoiceExample,
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
 * Judges the answer one criterion at a time, stopping at the first failure (as in
 * https://jina.ai/news/a-practical-guide-to-implementing-deepsearch-deepresearch/). A judge
 * whose reply cannot be parsed is skipped with a warning rather than failing a good answer.
 */
export async function evaluateAnswer(
  context: RunContext,
  input: { question: string; answer: string; references: Reference[]; criteria: EvaluationCriterion[] },
): Promise<EvaluationOutcome> {
  const references = judgedReferences(context.state, input.references);
  for (const criterion of input.criteria) {
    let verdict: JudgeVerdict;
    try {
      const result = await callLlm<JudgeReply>(context, {
        role: 'evaluator',
        system: evaluationSystemPrompt(criterion, context.today),
        prompt: evaluationPrompt({ question: input.question, answer: input.answer, references }),
        schema: judgeSchemas[criterion] as z.ZodType<JudgeReply>,
        schemaName: `evaluate_${criterion}`,
        example: judgeExamples[criterion],
      });
      verdict = judgeVerdict(result.object);
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
      reason: verdict.reason,
    });
    if (!verdict.pass) {
      return { pass: false, criterion, reason: verdict.reason, improvement: verdict.improvement };
    }
  }
  return { pass: true, reason: 'all criteria passed', improvement: '' };
}

/**
 * The references as the judges see them, each with its source's date when the page or its search
 * hit gave one: freshness cannot be judged from a URL.
 */
function judgedReferences(state: AgentState, references: readonly Reference[]): string {
  return references
    .map((reference) => {
      const date = state.pages.get(reference.url)?.publishedAt ?? state.urls.get(reference.url)?.publishedAt;
      const dated = date ? `dated ${date.slice(0, 10)}` : 'date unknown';
      return `[^${reference.index}] ${reference.url} (${dated}): "${reference.quote}"`;
    })
    .join('\n');
}

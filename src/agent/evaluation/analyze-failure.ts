import { isStructuredOutputError } from '../../core/errors/index.js';
import { analyzeFailurePrompt, analyzeFailureSystemPrompt } from '../prompts/analyze-failure-prompt.js';
import { callLlm, type RunContext } from '../run-context.js';
import { type FailureAnalysis, failureAnalysisExample, failureAnalysisSchema } from './criteria.js';

/**
 * Seed 002's error analyzer: recap, blame, improvement. Its improvement plan is shown in later
 * prompts as learned strategy.
 */
export async function analyzeFailure(
  context: RunContext,
  input: { question: string; steps: string; answer: string; reason: string; fallbackImprovement: string },
): Promise<FailureAnalysis> {
  try {
    const { object } = await callLlm(context, {
      role: 'analyzer',
      system: analyzeFailureSystemPrompt,
      prompt: analyzeFailurePrompt(input),
      schema: failureAnalysisSchema,
      schemaName: 'failure_analysis',
      example: failureAnalysisExample,
    });
    return object;
  } catch (error) {
    if (!isStructuredOutputError(error)) throw error;
    return { recap: '', blame: input.reason, improvement: input.fallbackImprovement };
  }
}

import type { PriceTable } from '../config/config-schema.js';
import { isAbortError, isAuthenticationError, isConfigError } from '../core/errors/index.js';
import type { DeepSearchResult } from '../events/deep-search-result.js';
import type { LlmCallRecord } from '../providers/spec/llm-client.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import { costOfCalls, tokensOfCalls } from './cost-of-calls.js';
import type { EvalQuestion, EvalRecord, EvalReference } from './eval-types.js';
import { gradeAnswer } from './judge/grade-answer.js';

export interface EvaluateQuestionOptions {
  runtime: DeepSearchRuntime;
  question: EvalQuestion;
  pricing: PriceTable;
  signal?: AbortSignal;
  /** Told when the agent has answered and the judge is grading. */
  onGrading?: () => void;
}

/**
 * Errors no other question would escape (a rejected key, a bad setting) and cancellation end the
 * whole evaluation; anything else fails this question only, and --resume tries it again.
 */
export function stopsEvaluation(error: unknown): boolean {
  return isAbortError(error) || isAuthenticationError(error) || isConfigError(error);
}

/** One question: the deep search, then the judge; a failure of either is a record with `status: 'error'`. */
export async function evaluateQuestion(options: EvaluateQuestionOptions): Promise<EvalRecord> {
  const { runtime, question, pricing } = options;
  const started = performance.now();
  const calls: LlmCallRecord[] = [];
  const base = { id: question.id, question: question.question, expected: question.answer };
  let result: DeepSearchResult;
  try {
    ({ result } = await runtime.run({
      mode: 'search',
      question: question.question,
      signal: options.signal,
      // Marked as an evaluation's: the web page's history leaves them out unless asked.
      record: { source: 'cli', options: { eval: { questionId: question.id } } },
      observers: [(event) => void (event.type === 'llm-call' && calls.push(event))],
    }));
  } catch (error) {
    if (stopsEvaluation(error)) throw error;
    return {
      ...base,
      ...emptyRun(calls, pricing),
      durationMs: Math.round(performance.now() - started),
      error: runtime.redact((error as Error).message),
      finishedAt: new Date().toISOString(),
    };
  }
  const run = {
    answer: result.answer,
    confidence: result.confidence,
    steps: result.steps,
    tokens: tokensOfCalls(calls),
    costUsd: costOfCalls(calls, pricing),
    references: result.references.map(
      (reference): EvalReference => ({
        url: reference.url,
        title: reference.title,
        quote: reference.quote,
        verified: reference.quoteKind === 'exact',
      }),
    ),
  };
  options.onGrading?.();
  try {
    const graded = await gradeAnswer({
      llm: runtime.llm,
      question: question.question,
      target: question.answer,
      predicted: result.answer,
      signal: options.signal,
    });
    return {
      ...base,
      ...run,
      status: 'graded',
      grade: graded.grade,
      rationale: graded.rationale,
      durationMs: Math.round(performance.now() - started),
      judge: {
        model: graded.model,
        tokens: tokensOfCalls(graded.calls),
        costUsd: costOfCalls(graded.calls, pricing),
      },
      finishedAt: new Date().toISOString(),
    };
  } catch (error) {
    if (stopsEvaluation(error)) throw error;
    return {
      ...base,
      ...run,
      status: 'error',
      grade: null,
      rationale: null,
      judge: null,
      durationMs: Math.round(performance.now() - started),
      error: `judge: ${runtime.redact((error as Error).message)}`,
      finishedAt: new Date().toISOString(),
    };
  }
}

function emptyRun(calls: readonly LlmCallRecord[], pricing: PriceTable) {
  return {
    status: 'error' as const,
    answer: null,
    grade: null,
    rationale: null,
    confidence: null,
    steps: 0,
    tokens: tokensOfCalls(calls),
    costUsd: costOfCalls(calls, pricing),
    references: [],
    judge: null,
  };
}

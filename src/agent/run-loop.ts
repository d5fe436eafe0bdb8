import { AbortedError, throwIfAborted } from '../core/errors/index.js';
import type { DeepSearchResult } from '../events/deep-search-result.js';
import { independentSources } from './citations/describe-sources.js';
import { stopPrefetching } from './context/prefetch-pages.js';
import type { EvaluationCriterion } from './evaluation/criteria.js';
import { chooseCriteria } from './evaluation/evaluate-answer.js';
import type { PreparedRun } from './run-agent.js';
import { createCheckpoint } from './run-checkpoint.js';
import type { RunContext } from './run-context.js';
import { applyOutcome, runStep } from './run-step.js';
import type { FinalAnswer } from './steps/final-answer.js';
import { runFinalAnswerStep } from './steps/final-answer-step.js';
import { classifyStepError, errorMessage, failureForModel } from './steps/step-errors.js';

/** Steps that fail one after another before the loop gives up and answers from what it has. */
const maxConsecutiveFailedSteps = 3;

/** Runs a prepared run to its end: the loop, the final answer if needed, the result. */
export async function runLoop(run: PreparedRun): Promise<DeepSearchResult> {
  const { context, events } = run;
  const { budget, state } = context;
  // Readers load their libraries while the first LLM call is in flight, not after it.
  void context.reader.prepare?.();
  context.emit({
    type: 'run-start',
    question: state.question,
    language: context.language.name,
    ...(run.parentRunId ? { parentRunId: run.parentRunId } : {}),
    ...(run.part ? { part: run.part } : {}),
  });
  try {
    const final = await loop(run);
    budget.markAnswerToken();
    // The verified answer: quotes checked, footnotes aligned (a draft may have streamed before).
    for (const delta of chunkAnswer(final.answer)) context.emit({ type: 'answer-delta', delta });
    const result: DeepSearchResult = {
      runId: context.runId,
      question: state.question,
      ...final,
      independentSources: independentSources(state, final.references),
      usage: budget.usage(),
      steps: budget.steps,
      durationMs: budget.elapsedMs,
      timing: budget.timing(),
      budget: budget.report(),
      visitedUrls: state.pages.all().map((page) => page.url),
      skipped: [...state.skipped.values()],
      warnings: [...events.warnings],
      computations: state.knowledge
        .filter((item) => item.type === 'coding' && item.code !== undefined)
        .map((item) => ({ step: item.step, purpose: item.question, code: item.code!, result: item.answer })),
    };
    context.emit({ type: 'run-end', result });
    return result;
  } finally {
    stopPrefetching(context);
    if (run.ownsBudget) budget.dispose();
    else budget.release();
  }
}

async function loop(run: PreparedRun): Promise<FinalAnswer> {
  const { context } = run;
  const { budget } = context;
  // Chosen once per run; a checkpoint keeps them, so a resumed run does not ask again.
  let chosen = run.restored?.criteria;
  let criteria: Promise<EvaluationCriterion[]> | undefined = chosen && Promise.resolve(chosen);
  const criteriaOnce = () => {
    criteria ??= chooseCriteria(context, context.state.question).then((list) => {
      chosen = list;
      return list;
    });
    return criteria;
  };
  const checkpoint = async () => run.onCheckpoint?.(createCheckpoint(context, chosen));
  let failedInARow = 0;
  while (true) {
    throwIfAborted(context.cancelSignal);
    if (budget.stopReason()) break;
    budget.countStep();
    context.step = budget.steps;
    try {
      const final = await runStep(context, criteriaOnce);
      failedInARow = 0;
      if (final) return final;
      await checkpoint();
      // A model that keeps repeating itself has stopped getting anywhere: answer from what it found.
      if (context.state.progress.stalled) {
        budget.exhausted = 'no-progress';
        break;
      }
    } catch (error) {
      const kind = classifyStepError(error, { cancel: context.cancelSignal, regular: budget.regularSignal });
      if (kind === 'fatal')
        throw context.cancelSignal?.aborted ? new AbortedError(undefined, { cause: error }) : error;
      if (kind === 'deadline') {
        budget.exhausted = 'time';
        break;
      }
      noteFailedStep(context, context.state.currentQuestion, error);
      await checkpoint();
      if (++failedInARow >= maxConsecutiveFailedSteps) {
        budget.exhausted = 'errors';
        break;
      }
    }
  }
  throwIfAborted(context.cancelSignal);
  budget.countStep();
  context.step = budget.steps;
  return runFinalAnswerStep(context, budget.exhausted ?? 'steps');
}

/** A failed step is a diary line the model sees next step and a warning the person sees now. */
function noteFailedStep(context: RunContext, question: string, error: unknown): void {
  const message = errorMessage(error);
  context.emit({ type: 'warning', step: context.step, message: `step ${context.step} failed: ${message}` });
  applyOutcome(context, question, 'none', {
    note: `this step failed (${failureForModel(error)}); nothing was learned from it`,
  });
}

/** Splits the answer into word-boundary pieces for streaming consumers. */
function chunkAnswer(answer: string): string[] {
  return answer.match(/[\s\S]{1,80}(?:\s|$)|[\s\S]{1,80}/g) ?? [];
}

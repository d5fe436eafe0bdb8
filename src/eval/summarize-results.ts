import type { Confidence } from '../events/deep-search-result.js';
import type { EvalRecord } from './eval-types.js';

export interface Spread {
  median: number;
  p90: number;
  total: number;
}

export interface CalibrationRow {
  confidence: Confidence;
  answers: number;
  correct: number;
  /** correct / answers: what "high confidence" was worth. */
  accuracy: number | null;
}

export interface EvalSummary {
  /** Questions selected (after --limit). */
  questions: number;
  graded: number;
  /** Questions whose run or judge failed (tried again by --resume). */
  errors: number;
  /** Questions not run (a stop before the end). */
  notRun: number;
  correct: number;
  incorrect: number;
  notAttempted: number;
  /** correct / graded. */
  accuracy: number | null;
  /** correct / (correct + incorrect): SimpleQA's "correct given attempted". */
  accuracyAttempted: number | null;
  notAttemptedRate: number | null;
  /** Harmonic mean of accuracy and accuracyAttempted, SimpleQA's F-score. */
  fScore: number | null;
  calibration: CalibrationRow[];
  /** Over graded questions; null when none was graded. */
  steps: Spread | null;
  tokens: Spread | null;
  durationMs: Spread | null;
  /** Dollars of the runs; null when a model has no price (or nothing was graded). */
  costUsd: Spread | null;
  judgeCostUsd: number | null;
}

/** The numbers of the summary table, from the latest record of each selected question. */
export function summarizeResults(
  records: readonly EvalRecord[],
  options: { questions: number },
): EvalSummary {
  const graded = records.filter((record) => record.status === 'graded');
  const count = (grade: string) => graded.filter((record) => record.grade === grade).length;
  const correct = count('correct');
  const incorrect = count('incorrect');
  const notAttempted = count('not_attempted');
  const accuracy = ratio(correct, graded.length);
  const accuracyAttempted = ratio(correct, correct + incorrect);
  const costs = graded.map((record) => record.costUsd);
  const judgeCosts = graded.map((record) => record.judge?.costUsd ?? null);
  return {
    questions: options.questions,
    graded: graded.length,
    errors: records.length - graded.length,
    notRun: Math.max(0, options.questions - records.length),
    correct,
    incorrect,
    notAttempted,
    accuracy,
    accuracyAttempted,
    notAttemptedRate: ratio(notAttempted, graded.length),
    // As SimpleQA scores it: 0 when both are 0 (every answer wrong), not undefined.
    fScore:
      accuracy === null || accuracyAttempted === null
        ? null
        : accuracy + accuracyAttempted > 0
          ? (2 * accuracy * accuracyAttempted) / (accuracy + accuracyAttempted)
          : 0,
    calibration: (['high', 'medium', 'low'] as const).map((confidence) => {
      const answers = graded.filter((record) => record.confidence === confidence);
      const right = answers.filter((record) => record.grade === 'correct').length;
      return { confidence, answers: answers.length, correct: right, accuracy: ratio(right, answers.length) };
    }),
    steps: spread(graded.map((record) => record.steps)),
    tokens: spread(graded.map((record) => record.tokens.total)),
    durationMs: spread(graded.map((record) => record.durationMs)),
    costUsd: costs.some((cost) => cost === null) ? null : spread(costs as number[]),
    judgeCostUsd:
      graded.length === 0 || judgeCosts.some((cost) => cost === null)
        ? null
        : (judgeCosts as number[]).reduce((sum, cost) => sum + cost, 0),
  };
}

function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

function spread(values: readonly number[]): Spread | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    total: sorted.reduce((sum, value) => sum + value, 0),
  };
}

/** Linear interpolation between the closest ranks (numpy's default): the median of [1, 2, 3, 4] is 2.5. */
export function quantile(sorted: readonly number[], q: number): number {
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

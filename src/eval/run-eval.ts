import type { PriceTable } from '../config/config-schema.js';
import { anySignal } from '../core/link-signals.js';
import type { DeepSearchRuntime } from '../runtime/create-runtime.js';
import type { EvalQuestion, EvalRecord } from './eval-types.js';
import { evaluateQuestion, stopsEvaluation } from './evaluate-question.js';

export interface RunEvalOptions {
  runtime: DeepSearchRuntime;
  questions: readonly EvalQuestion[];
  /** Questions evaluated at once. */
  concurrency: number;
  pricing: PriceTable;
  signal?: AbortSignal;
  onStart?: (question: EvalQuestion) => void;
  /** Called once per finished question, before the next one starts on that worker: write it here. */
  onRecord: (record: EvalRecord) => void;
}

export interface EvalRun {
  records: EvalRecord[];
  /** Why it stopped before the end: the caller's cancel, or an error every question would hit. */
  stoppedBy?: unknown;
}

/**
 * Runs the questions `concurrency` at a time. A question cancelled mid-way writes nothing, so
 * --resume runs it again; one whose run or judge failed is written with its error.
 */
export async function runEval(options: RunEvalOptions): Promise<EvalRun> {
  const stop = new AbortController();
  const signal = anySignal(stop.signal, options.signal);
  const records: EvalRecord[] = [];
  let stoppedBy: unknown;
  let next = 0;
  const worker = async () => {
    while (!signal.aborted && next < options.questions.length) {
      const question = options.questions[next++]!;
      options.onStart?.(question);
      try {
        const record = await evaluateQuestion({
          runtime: options.runtime,
          question,
          pricing: options.pricing,
          signal,
        });
        records.push(record);
        options.onRecord(record);
      } catch (error) {
        if (!stopsEvaluation(error)) {
          stop.abort(error);
          throw error;
        }
        // The first reason is the one to report; the others are its echo in the other workers.
        stoppedBy ??= options.signal?.aborted ? options.signal.reason : error;
        stop.abort(error);
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, options.questions.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (options.signal?.aborted) stoppedBy ??= options.signal.reason;
  return { records, stoppedBy };
}

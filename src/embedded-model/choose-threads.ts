import type { EmbeddedEngine } from './embedded-engine.js';

export interface ThreadsChoice {
  threads: number;
  /** Why, in words a person reads in `doctor` and the note before a run. */
  reason: string;
  /** Tokens written per second with `threads`. */
  outputPerSecond: number;
}

/** N threads writing at less than this share of one thread's rate are stalled. */
const stallRatio = 0.5;
/** Time of one writing measurement. */
const writeBudgetMs = 400;

/**
 * The thread count for the embedded model on this machine, now. llama.cpp's threads spin-wait for
 * each other at every token: when another program holds a core, one descheduled thread stalls all
 * of them, and N threads write slower than one. So one thread is timed, then the default count; a
 * count that writes at less than half one thread's rate is stalled, and half as many are tried,
 * down to one. A count set by the user is kept and only timed. Costs about a second.
 */
export async function chooseThreads(
  engine: EmbeddedEngine,
  options: { signal?: AbortSignal; budgetMs?: number },
): Promise<ThreadsChoice> {
  const { info } = engine;
  const probe = { budgetMs: writeBudgetMs, signal: options.signal };
  if (info.threadsFromSetting) {
    return {
      threads: info.threads,
      reason: 'set by --llm-threads or DEEPSEARCH_LLM_THREADS',
      outputPerSecond: await engine.measureWriting(probe),
    };
  }
  const start = info.threads;
  const defaultReason = `default: ${info.maxThreads} math cores less one, so the rest of the machine keeps a core`;
  if (start <= 1) {
    const reason = info.maxThreads <= 1 ? 'the machine has one math core' : defaultReason;
    return { threads: 1, reason, outputPerSecond: await engine.measureWriting(probe) };
  }
  const started = performance.now();
  const budgetMs = options.budgetMs ?? 2000;
  engine.setThreads(1);
  const single = await engine.measureWriting(probe);
  const stalled: string[] = [];
  for (let threads = start; threads > 1; threads = Math.floor(threads / 2)) {
    engine.setThreads(threads);
    const rate = await engine.measureWriting(probe);
    if (rate >= single * stallRatio) {
      const reason =
        stalled.length === 0 ? `${defaultReason}; no stall seen` : stallReason(stalled, single, threads);
      return { threads, reason, outputPerSecond: rate };
    }
    stalled.push(`${threads} threads wrote ${rate} tokens/s`);
    if (performance.now() - started > budgetMs) break;
  }
  engine.setThreads(1);
  return { threads: 1, reason: stallReason(stalled, single, 1), outputPerSecond: single };
}

function stallReason(stalled: string[], single: number, chosen: number): string {
  return (
    `${stalled.join(', ')} against ${single} with one: their threads stall waiting for each other ` +
    `(another program holds a core), so ${chosen} ${chosen === 1 ? 'thread' : 'threads'}`
  );
}

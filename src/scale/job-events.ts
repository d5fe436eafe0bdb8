/**
 * What a worker did with a job, one event each, for its log and metrics: taken (a new run),
 * resumed (a run with a checkpoint: taken over after a worker died, handed back, or resumed;
 * `attempt` says which), finished (with tokens and duration), failed (with the error's code),
 * cancelled, handed back (shutdown) or lost (another worker holds it now).
 */
export type JobEvent =
  | { event: 'job-taken' | 'job-resumed'; runId: string; mode: string; attempt: number }
  | {
      event: 'job-finished';
      runId: string;
      mode: string;
      attempt: number;
      durationMs: number;
      inputTokens: number;
      outputTokens: number;
      totalTokens: number;
    }
  | {
      event: 'job-failed';
      runId: string;
      mode: string;
      attempt: number;
      durationMs: number;
      errorCode: string;
    }
  | {
      event: 'job-cancelled' | 'job-handed-back' | 'job-lost';
      runId: string;
      mode: string;
      attempt: number;
      durationMs: number;
    };

export type JobEventListener = (event: JobEvent) => void;

/** The tokens a run's outcome (`{ mode, result }`) reports: deep search and research both carry `usage`. */
export function resultTokens(outcome: unknown): {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
} {
  const result = (outcome as { result?: { usage?: { promptTokens?: unknown; completionTokens?: unknown } } })
    ?.result;
  const usage = result?.usage;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  const inputTokens = count(usage?.promptTokens);
  const outputTokens = count(usage?.completionTokens);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

import type { RunListItem, RunObject } from '../../../events/run-api.js';
import type { RunRecord, RunSummary } from '../../../runs/run-record.js';

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * A stored run as the async API shows it (GET /v1/research/{id}). A failed run's message passes
 * through `redact` (clientRedactorOf): a worker stores a provider's own words, which can name the
 * addresses of the services behind the server.
 */
export function runObject(record: RunRecord, redact: (text: string) => string): RunObject {
  const usage = record.usage;
  return {
    id: record.id,
    object: 'run',
    status: record.status,
    mode: record.mode,
    question: record.question,
    created_at: seconds(record.createdAt),
    ...(record.finishedAt !== null ? { finished_at: seconds(record.finishedAt) } : {}),
    options: record.options,
    ...(record.status === 'completed' && record.result ? { result: record.result } : {}),
    ...(record.status === 'failed' && record.error
      ? { error: { ...record.error, message: redact(record.error.message) } }
      : {}),
    ...(usage
      ? {
          usage: {
            prompt_tokens: usage.promptTokens,
            completion_tokens: usage.completionTokens,
            total_tokens: usage.totalTokens,
            cost_usd: usage.costUsd,
          },
        }
      : {}),
  };
}

/** A line of GET /v1/runs. */
export function runListItem(summary: RunSummary): RunListItem {
  return {
    id: summary.id,
    object: 'run',
    status: summary.status,
    mode: summary.mode,
    question: summary.question,
    created_at: seconds(summary.createdAt),
    finished_at: summary.finishedAt === null ? null : seconds(summary.finishedAt),
    answer_preview: summary.answerPreview,
    total_tokens: summary.totalTokens,
    evaluation: summary.evaluation,
  };
}

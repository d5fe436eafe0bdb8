import type { RunRecord, RunStatus, RunSummary, RunUsage } from './run-record.js';
import type { RunFinish } from './run-store.js';

/** A row of the run store's tables (SQLite's or Postgres's), as its driver returns it. */
export type Row = Record<string, unknown>;

/** A JSON column's value, parsed; null when the column is null. */
export const json = <T>(value: unknown): T | null =>
  typeof value === 'string' ? (JSON.parse(value) as T) : null;

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function toRecord(row: Row): RunRecord {
  return {
    id: String(row.id),
    owner: String(row.owner),
    source: row.source as RunRecord['source'],
    mode: String(row.mode),
    question: String(row.question),
    options: json(row.options) ?? {},
    settings: json(row.settings) ?? {},
    status: row.status as RunStatus,
    createdAt: Number(row.created_at),
    startedAt: numberOrNull(row.started_at),
    finishedAt: numberOrNull(row.finished_at),
    pid: numberOrNull(row.pid),
    result: json(row.result),
    error: json(row.error),
    usage: json(row.usage),
    lastSeq: Number(row.last_seq),
    checkpointStep: numberOrNull(row.checkpoint_step),
    // A file from before the attempt column (opened read-only elsewhere) has neither.
    attempt: Number(row.attempt ?? 0),
    worker: (row.worker as string | null | undefined) ?? null,
  };
}

export function toSummary(row: Row): RunSummary {
  return {
    id: String(row.id),
    owner: String(row.owner),
    source: row.source as RunSummary['source'],
    status: row.status as RunStatus,
    mode: String(row.mode),
    question: String(row.question),
    createdAt: Number(row.created_at),
    finishedAt: numberOrNull(row.finished_at),
    pid: numberOrNull(row.pid),
    answerPreview: (row.preview as string | null) ?? null,
    totalTokens: numberOrNull(row.total_tokens),
    costUsd: json<RunUsage>(row.usage)?.costUsd ?? null,
    evaluation: row.evaluation === 1 || row.evaluation === true,
  };
}

/**
 * A finished run's columns, in the order both stores' UPDATE lists them: status, finished_at,
 * result, answer (the text searched by list), error, usage, total_tokens.
 */
export function finishColumns(outcome: RunFinish, now: number): unknown[] {
  const answer = outcome.result?.answer;
  return [
    outcome.status,
    now,
    outcome.result ? JSON.stringify(outcome.result) : null,
    typeof answer === 'string' ? answer : null,
    outcome.error ? JSON.stringify(outcome.error) : null,
    outcome.usage ? JSON.stringify(outcome.usage) : null,
    outcome.usage?.totalTokens ?? null,
  ];
}

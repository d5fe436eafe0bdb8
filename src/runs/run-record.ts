import type { LlmRole } from '../config/config-schema.js';
import type { ConfigOverrides } from '../config/derive-config.js';
import type { ServiceSettings } from '../config/service-settings.js';
import type { RunError, RunStatus } from '../events/run-api.js';

export type RunSettings = ConfigOverrides & { services?: ServiceSettings };

export type { RunError, RunStatus } from '../events/run-api.js';

export const finishedStatuses: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Where a run was started from. */
export type RunSource = 'cli' | 'chat-completions' | 'responses' | 'research' | 'library' | 'mcp' | 'watch';

/** Tokens and cost of one role's calls; cost is null when a model's price is unknown. */
export interface RoleCost {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  calls: number;
  costUsd: number | null;
}

export interface RunUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  costUsd: number | null;
  byRole: Partial<Record<LlmRole, RoleCost>>;
}

/** What is known of a run when it is created. */
export interface NewRun {
  id: string;
  /** `local` for the CLI and a server without keys; `key:<sha256>` for an API key. */
  owner: string;
  source: RunSource;
  mode: string;
  question: string;
  /** The options as the caller gave them, secrets redacted (shown, never used). */
  options: Record<string, unknown>;
  /**
   * The run's own settings (budget, agent, search; research: its controller), used again to resume
   * it, and the services it ran with (never keys; absent for runs stored before they were kept).
   */
  settings: RunSettings;
}

/** A run as stored. Times are epoch milliseconds. */
export interface RunRecord extends NewRun {
  status: RunStatus;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** The process running it, while it runs (a crashed CLI run keeps it; see isStale). */
  pid: number | null;
  /** The DeepSearchResult (or another mode's result) as JSON. */
  result: Record<string, unknown> | null;
  error: RunError | null;
  usage: RunUsage | null;
  /** Sequence number of the last stored event. */
  lastSeq: number;
  /** The last step a checkpoint was saved at (null: none, the run cannot be resumed). */
  checkpointStep: number | null;
  /** Times the run was claimed to run (0: never; a worker taking it over adds one). */
  attempt: number;
  /** The worker holding the attempt (queue mode), while it runs. */
  worker: string | null;
}

/** A line of a run list. */
export interface RunSummary {
  id: string;
  owner: string;
  source: RunSource;
  status: RunStatus;
  mode: string;
  question: string;
  createdAt: number;
  finishedAt: number | null;
  pid: number | null;
  answerPreview: string | null;
  totalTokens: number | null;
  costUsd: number | null;
  /** A run of `deepsearch eval` (one question of a dataset). */
  evaluation: boolean;
}

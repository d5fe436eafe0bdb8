import type { BudgetSnapshot } from './budget.js';
import type { EvaluationCriterion } from './evaluation/criteria.js';
import type { RunContext } from './run-context.js';
import type { AgentStateSnapshot } from './state/agent-state.js';

/**
 * The checkpoint format of this build, for every kind of checkpoint (a deep search's, a research
 * task's: both hold the agent state and budget snapshots). Bumped when any of them changes shape.
 */
export const checkpointSchemaVersion = 1;

/** What every checkpoint holds, whatever kind of run wrote it: what the run store keeps and gives back. */
export interface StoredCheckpoint {
  $schemaVersion: number;
  /** Absent for a deep search; `research` for a research task (src/research/research-checkpoint.ts). */
  kind?: string;
  /** How far the run got: a deep search's last step, a research task's sections gathered. */
  step: number;
  state: AgentStateSnapshot;
  budget: BudgetSnapshot;
}

/** A stored checkpoint and the sequence number of the run's last stored event. */
export interface StoredRestore<Checkpoint extends StoredCheckpoint = StoredCheckpoint> {
  checkpoint: Checkpoint;
  lastSeq: number;
}

/**
 * A run's state after a step, as plain JSON: enough to go on from there in another process
 * (`deepsearch resume`) without redoing the LLM calls, searches and reads already done.
 */
export interface RunCheckpoint extends StoredCheckpoint {
  $schemaVersion: typeof checkpointSchemaVersion;
  kind?: undefined;
  /** The last step done. */
  step: number;
  /** The evaluation criteria, once chosen (an LLM call not to make again). */
  criteria?: EvaluationCriterion[];
}

/** Where a resumed run starts: its last checkpoint and the sequence number of its last stored event. */
export type RunRestore = StoredRestore<RunCheckpoint>;

/**
 * Where a run hands its checkpoints: the run awaits it before going on, so the next step (or
 * phase) and its LLM calls start only once the checkpoint is stored (a store in another process,
 * as a worker's, returns a promise; a local one writes at once). A takeover then never asks again
 * what a stored checkpoint holds.
 */
export type CheckpointHook<Checkpoint extends StoredCheckpoint = StoredCheckpoint> = (
  checkpoint: Checkpoint,
) => void | Promise<void>;

export function createCheckpoint(
  context: RunContext,
  criteria: EvaluationCriterion[] | undefined,
): RunCheckpoint {
  return {
    $schemaVersion: checkpointSchemaVersion,
    step: context.step,
    state: context.state.toJSON(),
    budget: context.budget.snapshot(),
    ...(criteria ? { criteria } : {}),
  };
}

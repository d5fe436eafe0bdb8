import type { Context } from 'hono';
import type { RunRecord } from '../../../runs/run-record.js';
import type { RunBackend } from '../../../scale/run-backend.js';
import type { ServerEnv } from '../../server-env.js';
import { interruptedError, isRunIdShape, runNotFound } from './run-not-found.js';

export interface OwnedRun {
  /** The run as stored. */
  record: RunRecord;
  /** The run as shown: failed (`run_interrupted`) when nobody holds it any more. */
  shown: RunRecord;
  /** Nobody holds it any more (its process or worker is gone). */
  lost: boolean;
}

/**
 * The run of the request's `:id` for the request's owner: to anyone else it does not exist (404,
 * never 403). `record` reads it alone; `owned` also asks whether anybody still holds it.
 */
export function createOwnedRuns(backend: RunBackend) {
  const record = async (c: Context<ServerEnv>): Promise<RunRecord> => {
    const id = c.req.param('id') ?? '';
    if (!isRunIdShape(id)) throw runNotFound(id);
    const stored = await backend.store.get(id);
    if (!stored || stored.owner !== c.var.owner) throw runNotFound(id);
    return stored;
  };
  const owned = async (c: Context<ServerEnv>): Promise<OwnedRun> => {
    const stored = await record(c);
    const lost = await backend.isInterrupted(stored);
    const shown: RunRecord = lost
      ? { ...stored, status: 'failed', error: interruptedError(stored.id) }
      : stored;
    return { record: stored, shown, lost };
  };
  return { record, owned };
}

export type OwnedRuns = ReturnType<typeof createOwnedRuns>;

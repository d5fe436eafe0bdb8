import type { AgentEvent } from '../../src/events/agent-events.js';

/**
 * A small event of a run, as the stores, logs and recorders under test write and read them: a
 * `warning` at `seq` (step 1, message `w<seq>`, at `seq` unless `fields` says otherwise).
 */
export function warningEvent(
  runId: string,
  seq: number,
  fields: { step?: number; message?: string; at?: number } = {},
): AgentEvent {
  return { type: 'warning', step: 1, message: `w${seq}`, runId, seq, at: seq, ...fields };
}

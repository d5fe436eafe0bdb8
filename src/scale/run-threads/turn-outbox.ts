import type { AgentEvent } from '../../events/agent-events.js';
import type { ForwardedRunWrite } from './forwarded-run-writes.js';
import type { FromRunThread } from './run-thread-protocol.js';

export interface TurnOutbox {
  /** A write of a run's recording, sent in this turn's message in the order written. */
  write(write: ForwardedRunWrite): void;
  /** An event of a run, sent in this turn's message with the run's others. */
  event(id: number, event: AgentEvent): void;
  /** Posts what this turn has so far now (before a run's end, which must come after its events). */
  flush(): void;
}

/**
 * A run thread's messages to the server's thread, one per turn of its event loop: every run's
 * writes and events of the turn go in one `turn` message at its end (setImmediate), so the server
 * reads one message and makes one commit for the turn, not one per write or per run.
 */
export function createTurnOutbox(post: (message: FromRunThread) => void): TurnOutbox {
  let writes: ForwardedRunWrite[] = [];
  let events = new Map<number, AgentEvent[]>();
  let scheduled: NodeJS.Immediate | undefined;
  const schedule = () => {
    scheduled ??= setImmediate(flush);
  };
  const flush = () => {
    clearImmediate(scheduled);
    scheduled = undefined;
    if (writes.length === 0 && events.size === 0) return;
    const turn: FromRunThread = {
      type: 'turn',
      writes,
      events: [...events].map(([id, list]) => ({ id, events: list })),
    };
    writes = [];
    events = new Map();
    post(turn);
  };
  return {
    write(write) {
      writes.push(write);
      schedule();
    },
    event(id, event) {
      const list = events.get(id);
      if (list) list.push(event);
      else events.set(id, [event]);
      schedule();
    },
    flush,
  };
}

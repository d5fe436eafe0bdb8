import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../events/agent-events.js';
import type { AsyncRunStore } from './async-run-store.js';
import { createMemoryRunEventLog } from './run-event-log.js';

const event = (seq: number): AgentEvent => ({
  type: 'warning',
  step: 1,
  message: `m${seq}`,
  runId: 'r',
  seq,
  at: seq,
});

/** A store holding events 1-2 of a running run (an earlier process's), as a recorder left them. */
function storeWith(stored: AgentEvent[]) {
  return {
    events: async (_runId: string, afterSeq = 0) => stored.filter((one) => one.seq > afterSeq),
    get: async () => ({ status: 'running' }),
  } as unknown as AsyncRunStore;
}

async function take(events: AsyncIterable<AgentEvent>, count: number): Promise<number[]> {
  const seqs: number[] = [];
  for await (const one of events) {
    seqs.push(one.seq);
    if (seqs.length === count) break;
  }
  return seqs;
}

describe('the memory event log', () => {
  it('gives a follower joining mid-run the published events its store does not hold yet, each once', async () => {
    const log = createMemoryRunEventLog({ store: storeWith([event(1), event(2)]) });
    // Published by this process's job, not yet written by its recorder.
    await log.publish('r', [event(3), event(4)]);
    const following = log.follow('r', 1);
    setImmediate(() => void log.publish('r', [event(5)]));
    expect(await take(following, 4)).toEqual([2, 3, 4, 5]);
  });

  it('ends a follower at the run end, and forgets what it kept', async () => {
    const log = createMemoryRunEventLog({ store: storeWith([]) });
    await log.publish('r', [event(1)]);
    const following = log.follow('r', 0);
    setImmediate(() => void log.publish('r', [event(2)]).then(() => log.end('r')));
    expect(await take(following, 10)).toEqual([1, 2]);
    expect(await take(log.follow('r', 0, { signal: AbortSignal.timeout(50) }), 10)).toEqual([]);
  });
});

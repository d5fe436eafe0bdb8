import { describe, expect, it } from 'vitest';
import type { AgentEventBody } from './agent-events.js';
import { describeEvent } from './describe-event.js';

describe('describeEvent', () => {
  it('gives a search its queries, counts and failures, and a level from how it went', () => {
    const search = (hits: number, failures: number): AgentEventBody => ({
      type: 'search-end',
      step: 1,
      queries: ['a', 'b'],
      hits,
      newUrls: 1,
      failures: Array.from({ length: failures }, () => ({ query: 'b', error: 'HTTP 503' })),
    });
    expect(describeEvent(search(5, 0))).toEqual({
      kind: 'search',
      level: 'ok',
      subject: '"a", "b"',
      label: '5 results, 1 new URL',
      items: [],
    });
    expect(describeEvent(search(5, 1))).toMatchObject({
      level: 'warn',
      items: ['search failed for "b": HTTP 503'],
    });
    expect(describeEvent(search(0, 1))?.level).toBe('bad');
  });

  it('words research in counts a person reads, and has no words for the answer itself', () => {
    expect(
      describeEvent({ type: 'fact-check', claims: 1, supported: 1, revised: 0, removed: 0 }),
    ).toMatchObject({
      subject: 'Synthesizer',
      label: 'fact-check: 1 claim, 1 supported, 0 revised, 0 removed',
    });
    expect(describeEvent({ type: 'answer-delta', delta: 'Paris' })).toBeUndefined();
    expect(describeEvent({ type: 'run-start', question: 'q', language: undefined })).toBeUndefined();
  });
});

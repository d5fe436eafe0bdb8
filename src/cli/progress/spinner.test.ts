import { describe, expect, it } from 'vitest';
import { createSpinner, withSpinner } from './spinner.js';

function fakeSpinner() {
  let written = '';
  let clock = 0;
  let scheduled = 0;
  let cancelled = 0;
  const spinner = createSpinner({
    write: (text) => {
      written += text;
    },
    now: () => clock,
    schedule: () => {
      scheduled++;
      return () => {
        cancelled++;
      };
    },
  });
  return {
    spinner,
    advance: (ms: number) => {
      clock += ms;
    },
    output: () => written,
    counts: () => ({ scheduled, cancelled }),
  };
}

const envelope = { runId: 'r', seq: 1, at: 0 };

describe('spinner', () => {
  it('shows what the run waits for and the seconds since the last event, erasing itself before output', () => {
    const fake = fakeSpinner();
    const lines: string[] = [];
    const progress = withSpinner((event) => lines.push(event.type), fake.spinner);
    fake.advance(2300);
    fake.spinner.tick();
    expect(fake.output()).toBe('\r\x1b[K⠋ waiting on the LLM 2.3s');
    progress.onEvent({ type: 'search-start', step: 1, queries: ['q'], ...envelope });
    expect(fake.output().endsWith('\r\x1b[K')).toBe(true);
    fake.advance(500);
    fake.spinner.tick();
    expect(fake.output().endsWith('⠙ searching 0.5s')).toBe(true);
    // Streamed deltas do not restart the clock.
    progress.onEvent({ type: 'answer-delta', delta: 'x', ...envelope });
    fake.advance(500);
    fake.spinner.tick();
    expect(fake.output().endsWith('⠹ searching 1.0s')).toBe(true);
    progress.stop();
    expect(fake.counts()).toEqual({ scheduled: 1, cancelled: 1 });
    expect(lines).toEqual(['search-start', 'answer-delta']);
  });

  it('steps aside while an answer draft grows on its line, and comes back with the next event', () => {
    const fake = fakeSpinner();
    const lines: string[] = [];
    const progress = withSpinner((event) => lines.push(event.type), fake.spinner);
    fake.spinner.tick();
    progress.onEvent({ type: 'answer-draft-delta', step: 1, delta: 'Peter ', ...envelope });
    const afterDraft = fake.output();
    expect(afterDraft.endsWith('\r\x1b[K')).toBe(true);
    fake.spinner.tick();
    progress.onEvent({ type: 'answer-draft-delta', step: 1, delta: 'Farrelly', ...envelope });
    fake.spinner.tick();
    // Nothing drawn over the draft while it grows.
    expect(fake.output()).toBe(afterDraft);
    progress.onEvent({ type: 'action', step: 1, action: 'answer', think: 't', ...envelope });
    fake.spinner.tick();
    expect(fake.output().endsWith('waiting on the LLM 0.0s')).toBe(true);
    expect(lines).toEqual(['answer-draft-delta', 'answer-draft-delta', 'action']);
    progress.stop();
  });

  it('writes nothing before its first tick and nothing after stop', () => {
    const fake = fakeSpinner();
    fake.spinner.start('waiting on the LLM');
    fake.spinner.clear();
    fake.spinner.stop();
    fake.spinner.tick();
    expect(fake.output()).toBe('');
  });
});

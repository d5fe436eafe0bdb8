import { describe, expect, it } from 'vitest';
import type { EvalRecord } from '../../../eval/eval-types.js';
import { createEvalProgress } from './eval-progress.js';

function finished(id: string, grade: EvalRecord['grade']): EvalRecord {
  return {
    id,
    question: `Question ${id}?`,
    expected: 'x',
    status: grade ? 'graded' : 'error',
    answer: 'x',
    grade,
    rationale: null,
    confidence: 'high',
    steps: 3,
    tokens: { prompt: 0, completion: 0, total: 0 },
    costUsd: null,
    durationMs: 4200,
    references: [],
    judge: null,
    error: grade ? undefined : 'LLM 500',
    finishedAt: '',
  };
}

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, write: (text: string) => writes.push(text), isTTY, columns: 160 };
}

describe('createEvalProgress', () => {
  it('on a terminal, redraws a bar with counts and an ETA from this session pace (resumed ones excluded)', () => {
    const out = stream(true);
    let now = 0;
    let tick: () => void = () => undefined;
    const progress = createEvalProgress({
      stream: out,
      env: { NO_COLOR: '1' },
      total: 10,
      alreadyDone: 4,
      now: () => now,
      schedule: (redraw) => {
        tick = redraw;
        return () => undefined;
      },
    });
    progress.start({ id: 'a', question: 'Question a?', answer: 'x' });
    now = 30_000;
    progress.finish(finished('a', 'correct'));
    now = 60_000;
    progress.finish(finished('b', null));
    tick();
    const last = out.writes.at(-1)!;
    // 6 of 10 done; 2 in 60 s this session: 4 left at 30 s each.
    expect(last).toContain('\r\x1b[K[##############..........] 6/10 · ETA 2m00s · 1m00s · 1 correct');
    expect(last).toContain('1 failed');
    expect(last).toContain('ETA 2m00s');
    expect(out.writes).toContain('[5/10] correct a: Question a? (high confidence, 3 steps, 4.2s)\n');
    expect(out.writes).toContain('[6/10] error b: Question b? (LLM 500)\n');
    progress.stop();
    expect(out.writes.at(-1)).toBe('\r\x1b[K');
  });

  it('off a terminal, writes only one plain line per question', () => {
    const out = stream(false);
    const progress = createEvalProgress({ stream: out, env: {}, total: 2, alreadyDone: 0 });
    progress.start({ id: 'a', question: 'Question a?', answer: 'x' });
    progress.finish(finished('a', 'not_attempted'));
    progress.stop();
    expect(out.writes).toEqual(['[1/2] not attempted a: Question a? (high confidence, 3 steps, 4.2s)\n']);
  });
});

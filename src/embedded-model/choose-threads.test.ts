import { describe, expect, it } from 'vitest';
import { chooseThreads } from './choose-threads.js';
import type { EmbeddedEngine, EmbeddedEngineInfo } from './embedded-engine.js';

/** An engine whose writing rate at each thread count is given: what a loaded machine measures. */
function engineWriting(
  rates: Record<number, number>,
  info: Partial<EmbeddedEngineInfo> & { threads: number; maxThreads: number },
) {
  const measured: number[] = [];
  const engine = {
    info: { threadsFromSetting: false, ...info } as EmbeddedEngineInfo,
    setThreads(threads: number) {
      engine.info.threads = threads;
    },
    measureWriting: async () => {
      measured.push(engine.info.threads);
      return rates[engine.info.threads] ?? 0;
    },
  };
  return { engine: engine as unknown as EmbeddedEngine, measured };
}

describe('chooseThreads', () => {
  it('keeps the default when it writes at least half as fast as one thread', async () => {
    const { engine, measured } = engineWriting({ 1: 10, 7: 40 }, { threads: 7, maxThreads: 8 });
    const choice = await chooseThreads(engine, {});
    expect(choice).toMatchObject({ threads: 7, outputPerSecond: 40 });
    expect(choice.reason).toBe(
      'default: 8 math cores less one, so the rest of the machine keeps a core; no stall seen',
    );
    expect(measured).toEqual([1, 7]);
    expect(engine.info.threads).toBe(7);
  });

  it('halves a stalled count until one does not stall, and says what it measured', async () => {
    const { engine, measured } = engineWriting(
      { 1: 20, 7: 1.5, 3: 2, 1.5: 0 },
      { threads: 7, maxThreads: 8 },
    );
    const stalled = await chooseThreads(engine, {});
    expect(measured).toEqual([1, 7, 3]);
    // Neither 7 nor 3 wrote half of one thread's rate: one thread it is.
    expect(stalled).toMatchObject({ threads: 1, outputPerSecond: 20 });
    expect(engine.info.threads).toBe(1);
    expect(stalled.reason).toBe(
      '7 threads wrote 1.5 tokens/s, 3 threads wrote 2 tokens/s against 20 with one: their threads stall ' +
        'waiting for each other (another program holds a core), so 1 thread',
    );

    const partly = engineWriting({ 1: 20, 7: 2, 3: 30 }, { threads: 7, maxThreads: 8 });
    const choice = await chooseThreads(partly.engine, {});
    expect(choice).toMatchObject({ threads: 3, outputPerSecond: 30 });
    expect(choice.reason).toContain('7 threads wrote 2 tokens/s against 20 with one');
    expect(partly.engine.info.threads).toBe(3);
  });

  it('keeps a count the user set, and does not look for a stall on one thread', async () => {
    const set = engineWriting({ 4: 3 }, { threads: 4, maxThreads: 4, threadsFromSetting: true });
    expect(await chooseThreads(set.engine, {})).toEqual({
      threads: 4,
      reason: 'set by --llm-threads or DEEPSEARCH_LLM_THREADS',
      outputPerSecond: 3,
    });
    expect(set.measured).toEqual([4]);
    const single = engineWriting({ 1: 9 }, { threads: 1, maxThreads: 2 });
    expect(await chooseThreads(single.engine, {})).toMatchObject({
      threads: 1,
      reason: 'default: 2 math cores less one, so the rest of the machine keeps a core',
    });
    expect(single.measured).toEqual([1]);
  });
});

import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseThreads } from '../../src/embedded-model/choose-threads.js';
import { closeEmbeddedEngines, getEmbeddedEngine } from '../../src/embedded-model/embedded-engine.js';
import { modelSpeed } from '../../src/embedded-model/estimate-speed.js';
import { embeddedRuntimeAvailable, tinyModelFile } from '../helpers/embedded-runtime.js';

const available = await embeddedRuntimeAvailable();

afterAll(() => closeEmbeddedEngines());

describe.skipIf(!available)('the embedded model’s threads (tiny random GGUF, real node-llama-cpp)', () => {
  it('leaves a core by default, changes threads without a reload, and probes within about 3 s', async () => {
    const engine = await getEmbeddedEngine({
      modelPath: tinyModelFile(),
      settings: { gpu: 'cpu' },
      maxContextTokens: 4096,
    });
    const { info } = engine;
    expect(info.threadsFromSetting).toBe(false);
    expect(info.threads).toBe(Math.max(1, info.maxThreads - 1));
    engine.setThreads(100);
    expect(info.threads).toBe(info.maxThreads);
    engine.setThreads(0);
    expect(info.threads).toBe(1);

    const started = performance.now();
    const speed = await modelSpeed(engine, { fresh: true });
    expect(performance.now() - started).toBeLessThan(3500);
    expect(speed.promptPerSecond).toBeGreaterThan(0);
    expect(speed.outputPerSecond).toBeGreaterThan(0);
    expect(speed.threads).toBe(info.threads);
    expect(speed.threadsReason).not.toBe('');
  });

  it('finds the stall of two threads beside a busy core and goes down to one', async () => {
    const engine = await getEmbeddedEngine({
      modelPath: tinyModelFile(),
      settings: { gpu: 'cpu' },
      maxContextTokens: 4096,
    });
    if (engine.info.maxThreads < 2) return; // a one-core machine has nothing to choose
    const loop: ChildProcess = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      engine.setThreads(2);
      const choice = await chooseThreads(engine, {});
      // On a 2-core machine with a core taken, 2 spinning threads write far slower than one.
      expect(choice.threads).toBe(1);
      expect(choice.reason).toMatch(
        /^2 threads wrote [\d.]+ tokens\/s against [\d.]+ with one: their threads stall/,
      );
      expect(engine.info.threads).toBe(1);
    } finally {
      loop.kill('SIGKILL');
    }
  });
});

import { describe, expect, it } from 'vitest';
import { checkpointSchemaVersion } from '../agent/run-checkpoint.js';
import { createTestConfig } from '../testing/test-config.js';
import { isResumable, resumedConfig } from './resume-target.js';
import type { RunRecord } from './run-record.js';
import { runSettings } from './run-recording.js';
import type { RunStore } from './run-store.js';

const started = createTestConfig({
  budget: { maxTokens: 100_000 },
  research: { concurrency: 1, maxHops: 1, writerShare: 0.3 },
});
// Today's config: other research settings and another budget.
const today = createTestConfig({
  budget: { maxTokens: 50_000 },
  research: { concurrency: 4, maxHops: 3, writerShare: 0.5 },
});

const record = (mode: string, settings = runSettings(started, mode)) =>
  ({ id: 'run', mode, settings }) as unknown as RunRecord;

describe('resumedConfig', () => {
  it("goes on with a research run's own controller settings, not today's", () => {
    const config = resumedConfig(today, record('research'));
    expect(config.research).toMatchObject({ concurrency: 1, maxHops: 1, writerShare: 0.3 });
    expect(config.budget.maxTokens).toBe(100_000);
  });

  it('takes settings given now over the stored ones', () => {
    const config = resumedConfig(today, record('research'), {
      budget: { maxTokens: 300_000 },
      research: { maxHops: 2 },
    });
    expect(config.research).toMatchObject({ concurrency: 1, maxHops: 2, writerShare: 0.3 });
    expect(config.budget.maxTokens).toBe(300_000);
  });

  it("stores no research settings with a deep search, and a run stored without them takes today's", () => {
    expect(runSettings(started, 'search')).not.toHaveProperty('research');
    const { research: _, ...older } = runSettings(started, 'research');
    expect(resumedConfig(today, record('research', older)).research).toEqual(today.research);
  });

  it('rejects a research setting given now that the schema refuses, naming it', () => {
    expect(() => resumedConfig(today, record('research'), { research: { maxHops: 0 } })).toThrow(
      /research\.maxHops/,
    );
  });
});

describe('isResumable', () => {
  /** A store holding one run, counting how often its checkpoint is read. */
  const storeWith = (run: Partial<RunRecord>, checkpoint: boolean) => {
    const reads = { count: 0 };
    const store = {
      get: (id: string) =>
        id === 'run' ? ({ id: 'run', owner: 'local', pid: null, ...run } as RunRecord) : undefined,
      // The head only: the whole checkpoint (with every page the run read) is never loaded.
      checkpointHead: () => {
        reads.count++;
        return checkpoint ? { $schemaVersion: checkpointSchemaVersion, kind: 'search' } : undefined;
      },
      restore: () => {
        throw new Error('isResumable loaded the whole checkpoint');
      },
    } as unknown as RunStore;
    return { store, reads };
  };

  it('says yes for a cancelled or failed run with a checkpoint, and for one stopped on its budget', () => {
    for (const run of [
      { status: 'cancelled', mode: 'search' },
      { status: 'failed', mode: 'search' },
      { status: 'completed', mode: 'search', result: { budget: { exhausted: 'tokens' } } },
    ] as Array<Partial<RunRecord>>) {
      const { store, reads } = storeWith(run, true);
      expect(isResumable({ store, runId: 'run' })).toBe(true);
      expect(reads.count).toBe(1);
    }
  });

  it('says no without a checkpoint, for another owner, and for a completed run without reading its checkpoint', () => {
    expect(
      isResumable({ store: storeWith({ status: 'cancelled', mode: 'search' }, false).store, runId: 'run' }),
    ).toBe(false);
    const cancelled = storeWith({ status: 'cancelled', mode: 'search' }, true);
    expect(isResumable({ store: cancelled.store, runId: 'run', owner: 'key:other' })).toBe(false);
    const completed = storeWith(
      { status: 'completed', mode: 'search', result: { budget: {} } } as Partial<RunRecord>,
      true,
    );
    expect(isResumable({ store: completed.store, runId: 'run' })).toBe(false);
    expect(completed.reads.count).toBe(0);
  });
});

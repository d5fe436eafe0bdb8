import { describe, expect, it } from 'vitest';
import { createTestConfig } from '../testing/test-config.js';
import { resumedConfig } from './resume-target.js';
import type { RunRecord } from './run-record.js';
import { runSettings } from './run-recording.js';

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

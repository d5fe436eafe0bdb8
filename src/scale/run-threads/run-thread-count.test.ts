import { describe, expect, it } from 'vitest';
import { createTestConfig } from '../../testing/test-config.js';
import { runThreadCount } from './run-thread-count.js';

describe('run threads serve starts', () => {
  it('the setting, at most the cores but one, unless runs must stay in the server thread', () => {
    const onDisk = createTestConfig({ runs: { file: '/tmp/runs.sqlite' } });
    expect(runThreadCount(onDisk, 1, 2)).toBe(1);
    expect(runThreadCount(onDisk, 3, 8)).toBe(3);
    expect(runThreadCount(onDisk, 0, 8)).toBe(0);
    // At most one fewer than the cores: none on one core.
    expect(runThreadCount(onDisk, 3, 2)).toBe(1);
    expect(runThreadCount(onDisk, 1, 1)).toBe(0);
    // The embedded model, as the whole LLM or as one role's.
    expect(
      runThreadCount(createTestConfig({ llm: { provider: 'local-embedded', baseURL: undefined } }), 1, 8),
    ).toBe(0);
    expect(
      runThreadCount(
        createTestConfig({ llm: { roles: { evaluator: { provider: 'local-embedded' } } } } as never),
        1,
        8,
      ),
    ).toBe(0);
    // Databases in memory: one per connection.
    expect(runThreadCount(createTestConfig({ runs: { file: ':memory:' } }), 1, 8)).toBe(0);
    expect(runThreadCount(createTestConfig({ knowledge: { file: ':memory:' } }), 1, 8)).toBe(0);
  });
});

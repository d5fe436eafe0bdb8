import { describe, expect, it } from 'vitest';
import { createTestConfig } from '../../testing/test-config.js';
import { runThreadCount } from './run-thread-count.js';

describe('run threads serve starts', () => {
  it('the setting, unless runs must stay in the server thread', () => {
    expect(runThreadCount(createTestConfig({ runs: { file: '/tmp/runs.sqlite' } }), 1)).toBe(1);
    expect(runThreadCount(createTestConfig({ runs: { file: '/tmp/runs.sqlite' } }), 3)).toBe(3);
    expect(runThreadCount(createTestConfig({ runs: { file: '/tmp/runs.sqlite' } }), 0)).toBe(0);
    // The embedded model, as the whole LLM or as one role's.
    expect(
      runThreadCount(createTestConfig({ llm: { provider: 'local-embedded', baseURL: undefined } }), 1),
    ).toBe(0);
    expect(
      runThreadCount(
        createTestConfig({ llm: { roles: { evaluator: { provider: 'local-embedded' } } } } as never),
        1,
      ),
    ).toBe(0);
    // Databases in memory: one per connection.
    expect(runThreadCount(createTestConfig({ runs: { file: ':memory:' } }), 1)).toBe(0);
    expect(runThreadCount(createTestConfig({ knowledge: { file: ':memory:' } }), 1)).toBe(0);
  });
});

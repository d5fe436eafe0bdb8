import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';
import { settingDeclarations } from './setting-declarations.js';
import { fileOnlySettings, settingSources } from './setting-sources.js';

describe('settings declared on the schema', () => {
  it('derive the loader table: variable, flag, type and default from one declaration', () => {
    const source = settingSources().find((candidate) => candidate.path === 'budget.maxSteps');
    expect(source).toMatchObject({
      env: 'DEEPSEARCH_MAX_STEPS',
      flag: 'max-steps',
      type: 'integer',
      defaultValue: 30,
    });
    expect(settingSources().filter((candidate) => candidate.path === 'retrieval.queryRewrite')).toMatchObject(
      [
        { env: 'DEEPSEARCH_QUERY_REWRITE', type: 'boolean' },
        { flag: 'no-query-rewrite', negate: true },
      ],
    );
    expect(fileOnlySettings()['search.timeoutSeconds']).toBe('seconds before one search call is abandoned');
  });

  it('never repeat the schema default in their description', () => {
    const repeating = settingDeclarations().filter(
      ({ meta, defaultValue }) => defaultValue !== undefined && /\(default [^:]/.test(meta.description),
    );
    expect(repeating.map(({ path }) => path)).toEqual([]);
  });
});

describe('the loaded config', () => {
  it('is frozen: a setting changed after loading fails where it is changed', () => {
    const config = loadConfig({ env: { DEEPSEARCH_MAX_STEPS: '7' } });
    expect(config.budget.maxSteps).toBe(7);
    expect(Object.isFrozen(config.budget)).toBe(true);
    expect(() => {
      (config.budget as { maxSteps: number }).maxSteps = 8;
    }).toThrow(TypeError);
  });

  it('takes an entry point values as inputs: command values above flags, fallbacks for unset keys', () => {
    const config = loadConfig({
      env: { DEEPSEARCH_RUNS_FILE: '/env/runs.sqlite' },
      commandValues: [{ path: 'knowledge.file', value: '/kb.sqlite', origin: '--kb' }],
      fallbacks: () => ({ 'runs.file': '/data/runs.sqlite', 'cache.dir': '/data' }),
    });
    expect([config.knowledge.file, config.runs.file, config.cache.dir]).toEqual([
      '/kb.sqlite',
      '/env/runs.sqlite',
      '/data',
    ]);
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors/index.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createScriptedLlm } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { createTestConfig } from '../../src/testing/test-config.js';

const paywalled = 'https://paywall.example/story';

function runtimeWith(file: string, steps: Parameters<typeof createScriptedLlm>[0]) {
  const llm = createScriptedLlm(steps);
  const runtime = createRuntime({
    config: createTestConfig({ retrieval: { hostHealthFile: file }, budget: { maxSteps: 3 } }),
    search: createFakeSearch({ news: [{ url: paywalled, title: 'Election results', snippet: '' }] }),
    reader: {
      specificationVersion: 'v1',
      id: 'paywall',
      read: async (url) => {
        throw new ProviderError(`${url} answered HTTP 402`, { providerId: 'builtin', statusCode: 402 });
      },
    },
    createModel: () => llm,
  });
  return { runtime, llm };
}

describe('host health across runs', () => {
  it('saves paywalled hosts after a run and the next runtime starts from them', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'deepsearch-hosts-')), 'nested', 'hosts.json');
    const first = runtimeWith(file, [
      scriptedStep.search(['news']),
      scriptedStep.visit([paywalled]),
      scriptedStep.finalAnswer('Unknown.'),
    ]);
    await first.runtime.run({ mode: 'search', question: 'election results' });
    first.llm.assertConsumed();
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved['paywall.example']).toMatchObject({ paywalled: 1, failures: 0, successes: 0 });
    const second = runtimeWith(file, []);
    expect(second.runtime.hostHealth.penalty('paywall.example')).toBeGreaterThan(0.5);
  });

  it('starts afresh from a damaged file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'deepsearch-hosts-')), 'hosts.json');
    writeFileSync(file, '{ not json');
    expect(runtimeWith(file, []).runtime.hostHealth.snapshot()).toEqual({});
  });
});

import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createScriptedLlm, type ScriptedCall } from '../../src/testing/scripted-llm.js';
import { createRoutedLlm } from './routed-llm.js';

const call = (schemaName: string, text: string): LanguageModelV3CallOptions => ({
  prompt: [
    { role: 'system', content: 'You write reports.' },
    { role: 'user', content: [{ type: 'text', text }] },
  ],
  responseFormat: { type: 'json', name: schemaName, schema: { type: 'object' } },
});

const replyText = async (result: PromiseLike<LanguageModelV3GenerateResult>) => {
  const part = (await result).content.find((item) => item.type === 'text');
  return part?.type === 'text' ? part.text : undefined;
};

describe('routed LLM', () => {
  it('answers by schema name and prompt text, with replies or a scripted model per route', async () => {
    const sections = createScriptedLlm([
      { object: { markdown: 'first' }, expect: { promptIncludes: 'Market' } },
      { object: { markdown: 'second' } },
    ]);
    const llm = createRoutedLlm([
      { schemaName: 'research_section', llm: sections },
      {
        schemaName: 'research_plan',
        reply: (seen: ScriptedCall) => ({ title: seen.prompt.toUpperCase() }),
        times: 1,
      },
    ]);
    expect(await replyText(llm.doGenerate(call('research_plan', 'heat pumps')))).toBe(
      '{"title":"HEAT PUMPS"}',
    );
    expect(await replyText(llm.doGenerate(call('research_section', 'Market')))).toBe('{"markdown":"first"}');
    expect(await replyText(llm.doGenerate(call('research_section', 'Policy')))).toBe('{"markdown":"second"}');
    // The route's own model saw its calls; the routed one saw all of them, in order.
    expect(sections.calls.map((seen) => seen.prompt)).toEqual(['Market', 'Policy']);
    expect(llm.calls.map((seen) => seen.schemaName)).toEqual([
      'research_plan',
      'research_section',
      'research_section',
    ]);
    llm.assertConsumed();
    // `times: 1` is used up: another plan call has no route.
    await expect(llm.doGenerate(call('research_plan', 'again'))).rejects.toThrow(
      /no route for call #4 \(schema research_plan\): again/,
    );
    expect(() => llm.assertNoProblems()).toThrow(/no route for call #4/);
  });

  it('assertConsumed fails on a scripted route step never used or a broken expectation', async () => {
    const unused = createRoutedLlm([
      { schemaName: 'research_review', llm: createScriptedLlm([{ object: {} }, { object: {} }]) },
    ]);
    await unused.doGenerate(call('research_review', 'draft'));
    expect(() => unused.assertNoProblems()).not.toThrow();
    expect(() => unused.assertConsumed()).toThrow(/1 scripted step\(s\) never used/);

    const broken = createRoutedLlm([
      { llm: createScriptedLlm([{ object: {}, expect: { promptIncludes: 'Subsidies' } }]) },
    ]);
    await expect(broken.doGenerate(call('research_claims', 'draft'))).rejects.toThrow(/Subsidies/);
    expect(() => broken.assertConsumed()).toThrow(/Subsidies/);
  });

  it('counts the calls in flight at once', async () => {
    const llm = createRoutedLlm([{ reply: { ok: true }, delayMs: 20 }]);
    await Promise.all([1, 2, 3].map((index) => llm.doGenerate(call('any', `call ${index}`))));
    expect(llm.maxConcurrent).toBe(3);
    expect(llm.calls).toHaveLength(3);
  });
});

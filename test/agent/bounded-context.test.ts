import { describe, expect, it } from 'vitest';
import {
  outputReserve,
  smallProfileContextTokens,
  smallProfileKnowledgeTokens,
} from '../../src/agent/context/build-agent-prompt.js';
import { estimateTokens } from '../../src/platform/llm-context/estimate-tokens.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { eventsOf, runAgent } from '../helpers/agent-harness.js';
import { longContextWorld } from '../helpers/long-context-world.js';

const contextTokens = 8192;
const rounds = 15;

describe('bounded context', () => {
  it('keeps every prompt within the context budget over 30 steps, without growth', async () => {
    const { search, pages, steps } = longContextWorld(rounds);
    steps.push(scriptedStep.finalAnswer('A long history.'));
    const { result, events, llm } = await runAgent('What is the history of topic 3?', {
      search,
      pages,
      steps,
      config: { llm: { contextTokens }, budget: { maxSteps: rounds * 2 + 1, maxTokens: 10_000_000 } },
    });
    llm.assertConsumed();
    expect(result.steps).toBe(31);
    const budget = contextTokens - outputReserve(contextTokens);
    const promptTokens = eventsOf(events, 'step-start').map((event) => event.promptTokens);
    expect(promptTokens).toHaveLength(31);
    for (const tokens of promptTokens) expect(tokens).toBeLessThanOrEqual(budget);
    // What was sent matches what was budgeted.
    for (const call of llm.calls) expect(call.promptTokens).toBeLessThanOrEqual(budget + 50);
    // Knowledge kept growing (15 long pages, 150 hits), the prompt did not.
    const early = Math.max(...promptTokens.slice(8, 12));
    const late = Math.max(...promptTokens.slice(26));
    expect(late).toBeLessThanOrEqual(budget);
    expect(late).toBeLessThanOrEqual(early * 1.25);
    // The most relevant page for the question is still in the last prompt.
    expect(llm.calls.at(-1)!.prompt).toContain('Site 3 paragraph');
  });

  it('keeps prompts under the small profile cap for 30 steps, with knowledge under its share', async () => {
    const { search, pages, steps } = longContextWorld(rounds);
    steps.push(scriptedStep.finalAnswer('A long history.'));
    const { result, llm } = await runAgent('What is the history of topic 3?', {
      search,
      pages,
      steps,
      config: { llm: { contextTokens: 16_384 }, budget: { maxSteps: rounds * 2 + 1, maxTokens: 10_000_000 } },
    });
    llm.assertConsumed();
    expect(result.steps).toBe(31);
    for (const call of llm.calls) {
      const system = estimateTokens(call.system);
      const question = estimateTokens('<question>\nWhat is the history of topic 3?\n</question>');
      expect(call.promptTokens).toBeLessThanOrEqual(system + question + smallProfileContextTokens + 50);
      const knowledge = /<knowledge>\n([\s\S]*?)\n<\/knowledge>/.exec(call.prompt)?.[1] ?? '';
      expect(estimateTokens(knowledge)).toBeLessThanOrEqual(smallProfileKnowledgeTokens);
    }
    // The default profile fills more of a larger window; the small one stays well below 16k.
    expect(Math.max(...llm.calls.map((call) => call.promptTokens))).toBeLessThan(12_000);
    expect(llm.calls.at(-1)!.prompt).toContain('Site 3 paragraph');
  });

  it('names the question in diary lines only for sub-questions, and lists a hit once', async () => {
    const { search, pages, steps } = longContextWorld(2);
    steps.push(scriptedStep.finalAnswer('A long history.'));
    const { llm } = await runAgent('What is the history of topic 3?', {
      search,
      pages,
      steps,
      config: { budget: { maxSteps: 5 } },
    });
    const prompt = llm.calls[3]!.prompt;
    expect(prompt).toMatch(/Step 1 \(search\): /);
    expect(prompt).not.toContain('for "What is the history of topic 3?"');
    const listed = /<url-list>\n([\s\S]*?)\n<\/url-list>/.exec(prompt)?.[1] ?? '';
    const results = /<search-results>\n([\s\S]*?)\n<\/search-results>/.exec(prompt)?.[1] ?? '';
    const listedUrls = listed.match(/https:\/\/\S+/g) ?? [];
    expect(listedUrls.length).toBeGreaterThan(0);
    for (const url of listedUrls) expect(results).not.toContain(`(${url})`);
  });
});

import { describe, expect, it } from 'vitest';
import { outputReserve } from '../../src/agent/context/build-agent-prompt.js';
import type { SearchHit } from '../../src/providers/spec/search-provider.js';
import type { ScriptedStep } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { eventsOf, runAgent } from '../helpers/agent-harness.js';

const contextTokens = 8192;
const rounds = 15;

function longPage(index: number): string {
  const paragraphs = Array.from(
    { length: 120 },
    (_, paragraph) =>
      `<p>Site ${index} paragraph ${paragraph}: the history of topic ${index} includes many details about event ${paragraph} and its aftermath in the region.</p>`,
  );
  return `<html><head><title>Topic ${index}</title></head><body><article><h1>Topic ${index}</h1>${paragraphs.join('')}</article></body></html>`;
}

function hitsFor(index: number): SearchHit[] {
  return Array.from({ length: 10 }, (_, hit) => ({
    url: `https://site${index}.example/page${hit}`,
    title: `Topic ${index} result ${hit}`,
    snippet:
      `A long snippet about topic ${index} and result ${hit}, with enough words to take real space in a prompt. `.repeat(
        3,
      ),
  }));
}

describe('bounded context', () => {
  it('keeps every prompt within the context budget over 30 steps, without growth', async () => {
    const search: Record<string, SearchHit[]> = {};
    const pages: Record<string, string> = {};
    const steps: ScriptedStep[] = [];
    for (let index = 0; index < rounds; index++) {
      search[`topic ${index} history`] = hitsFor(index);
      pages[`https://site${index}.example/page0`] = longPage(index);
      steps.push(
        scriptedStep.search([`topic ${index} history`]),
        scriptedStep.visit([`https://site${index}.example/page0`]),
      );
    }
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
});

import type { SearchHit } from '../../src/providers/spec/search-provider.js';
import type { ScriptedStep } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';

/**
 * A world where knowledge keeps growing: each round searches (10 long hits) and reads one long
 * page. Used to check that prompts stay within their budget however long a run goes.
 */
export function longContextWorld(rounds: number): {
  search: Record<string, SearchHit[]>;
  pages: Record<string, string>;
  steps: ScriptedStep[];
} {
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
  return { search, pages, steps };
}

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

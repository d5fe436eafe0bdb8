import { describe, expect, it } from 'vitest';
import { describeQuotes, independentSources } from '../../src/agent/citations/describe-sources.js';
import { referenceJson } from '../../src/agent/citations/reference-json.js';
import { verifyReferences } from '../../src/agent/citations/verify-references.js';
import { renderKnowledge } from '../../src/agent/context/render-knowledge.js';
import { AgentState } from '../../src/agent/state/agent-state.js';
import { extractiveAnswer } from '../../src/agent/steps/extractive-answer.js';
import type { Page } from '../../src/providers/spec/page-reader.js';
import { otherArticle, syndicatedCopy, wireStory } from '../fixtures/wire-story.js';

const original = 'https://www.statnews.com/2025/12/18/weight-loss-drugs-wegovy-zepbound-health-plans/';
const copy = 'https://health-wire.example/2025/hca-obesity-drugs';
const other = 'https://business-daily.example/hca-drops-wegovy';

function page(url: string, text: string, extra: Partial<Page> = {}): Page {
  return {
    requestedUrl: url,
    url,
    title: url,
    markdown: text,
    text,
    links: [],
    contentType: 'text/html',
    ...extra,
  };
}

function stateWithCopies(): AgentState {
  const state = new AgentState('Why did HCA stop covering Wegovy?');
  // The copy is read first; the original is dated earlier, so it is the one cited.
  state.pages.add(page(copy, syndicatedCopy, { publishedAt: '2025-12-19' }), 1);
  state.pages.add(page(original, wireStory, { publishedAt: '2025-12-18' }), 1);
  state.pages.add(page(other, otherArticle), 2);
  return state;
}

describe('citations of copies of one story', () => {
  it("cites the group's original for a quote from a copy, lists the copy in alsoAt, and counts one source", () => {
    const state = stateWithCopies();
    const verified = verifyReferences(
      state,
      'Use surged[^1]. Lilly and Novo sell directly[^2]. Others too[^3].',
      [
        { url: copy, quote: 'HCA said use of the GLP-1 weight loss drugs surged 90% this year' },
        { url: original, quote: 'HCA said use of the GLP-1 weight loss drugs surged 90% this year' },
        {
          url: other,
          quote: 'steered to the direct-to-consumer pharmacies run by Eli Lilly and Novo Nordisk',
        },
      ],
    );
    expect(verified.references.map((reference) => [reference.url, reference.alsoAt])).toEqual([
      [original, [copy]],
      [other, undefined],
    ]);
    // The same quote from the copy and the original is one reference.
    expect(verified.renumber.get(2)).toBe(1);
    expect(independentSources(state, verified.references)).toBe(2);
    expect(describeQuotes(state, verified.references)).toBe(
      '2 verified quotes from 2 independent sources (1 more site carries the same text)',
    );
    expect(referenceJson(verified.references[0]!).also_at).toEqual([copy]);
    expect(referenceJson(verified.references[1]!)).not.toHaveProperty('also_at');
  });

  it("keeps a copy's own text (its header) cited at the copy, still one source with the original", () => {
    const state = stateWithCopies();
    const verified = verifyReferences(state, 'A[^1] B[^2]', [
      { url: copy, quote: 'By Staff and wire reports' },
      { url: original, quote: 'HCA declined to comment' },
    ]);
    expect(verified.references.map((reference) => reference.url)).toEqual([copy, original]);
    expect(verified.references[0]!.alsoAt).toEqual([original]);
    expect(independentSources(state, verified.references)).toBe(1);
    expect(describeQuotes(state, verified.references)).toBe('2 verified quotes from 1 independent source');
  });

  it('the answer written without a model quotes one passage per story, at the original', () => {
    const state = stateWithCopies();
    const extract = extractiveAnswer(state, 'the model kept failing')!;
    expect(extract.references.map((reference) => reference.url).sort()).toEqual([other, original].sort());
    const story = extract.references.find((reference) => reference.url === original)!;
    expect(story.alsoAt).toEqual([copy]);
    expect(wireStory.replace(/\s+/g, ' ')).toContain(story.quote);
  });

  it("tells the model a copy's source is the same story as the original's", () => {
    const state = stateWithCopies();
    const prompt = renderKnowledge(state, state.question, 20_000);
    const number = (url: string) => state.sourceNumbers.numberOf(url);
    expect(prompt).toContain(`<source n="${number(copy)}" url="${copy}"`);
    expect(prompt).toMatch(new RegExp(`url="${copy}"[^>]*same-story-as="${number(original)}">`));
    expect(prompt).not.toMatch(new RegExp(`url="${original}"[^>]*same-story-as`));
    expect(prompt).not.toMatch(new RegExp(`url="${other}"[^>]*same-story-as`));
  });
});

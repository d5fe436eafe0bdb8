import { describe, expect, it } from 'vitest';
import type { Reference } from '../../src/events/deep-search-result.js';
import type { ReportSection, ResearchEvidence } from '../../src/events/research-result.js';
import { createLlmClient } from '../../src/providers/llm/create-llm-client.js';
import type { Page } from '../../src/providers/spec/page-reader.js';
import { librarianCheck } from '../../src/research/gather/librarian-check.js';
import { createResearchContext, type ResearchContext } from '../../src/research/research-context.js';
import { createFactCheckCycle, factCheck } from '../../src/research/write/fact-check.js';
import { findContradictions } from '../../src/research/write/find-contradictions.js';
import { ReportReferences } from '../../src/research/write/merge-references.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createScriptedLlm } from '../../src/testing/scripted-llm.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { otherArticle, syndicatedCopy, wireStory } from '../fixtures/wire-story.js';
import { createScriptRouter, type ScriptRoute } from '../helpers/script-router.js';

const topic = 'Why are employers dropping coverage of obesity drugs?';
const original = 'https://www.statnews.com/2025/12/18/weight-loss-drugs-wegovy-zepbound-health-plans/';
const copy = 'https://health-wire.example/2025/hca-obesity-drugs';
const mirror = 'https://mirror.example/stat/hca-obesity-drugs';
const other = 'https://business-daily.example/hca-drops-wegovy';
const surged = 'HCA said use of the GLP-1 weight loss drugs surged 90% this year';

function page(url: string, text: string, publishedAt?: string): Page {
  return {
    requestedUrl: url,
    url,
    title: url,
    markdown: text,
    text,
    links: [],
    contentType: 'text/html',
    publishedAt,
  };
}

/** A research task whose sections read the story on three sites and another article on the event. */
function researchWithCopies(routes: ScriptRoute[]): { research: ResearchContext; assertConsumed(): void } {
  const llm = createScriptRouter(routes);
  const config = createTestConfig();
  const research = createResearchContext({
    topic,
    config,
    llm: createLlmClient({ config, createModel: () => llm }),
    search: createFakeSearch({}),
    reader: createFakeReader({}),
  });
  const { pages } = research.task.state;
  pages.add(page(copy, syndicatedCopy, '2025-12-19'), 1);
  pages.add(page(original, wireStory, '2025-12-18'), 1);
  pages.add(page(mirror, `${wireStory}\n\nMirrored from statnews.com. Report abuse.`), 2);
  pages.add(page(other, otherArticle), 2);
  return { research, assertConsumed: () => llm.assertConsumed() };
}

function reference(index: number, url: string, quote: string): Reference {
  return { index, url, title: url, quote, quoteKind: 'exact' };
}

function evidenceOf(references: Reference[]): ResearchEvidence {
  const section = { id: 's1', heading: 'Employers', questions: ['Why is coverage dropped?'] };
  return {
    plan: { topic, title: 'Obesity drug coverage', language: 'English', sections: [section], dataPoints: [] },
    sections: [
      {
        section,
        findings: [
          { question: section.questions[0]!, answer: 'x', references, confidence: 'high', runId: 'part-1' },
        ],
        coverage: { items: [], ratio: 1, hops: 1 },
      },
    ],
    contradictions: [],
  };
}

describe("research's contradiction finder compares stories, not copies", () => {
  it('lists a quote read on three copies once, at the original, and drops a "disagreement" within one story', async () => {
    const contradictions = createScriptedLlm([
      {
        object: {
          contradictions: [
            // Sources 1 and 2 are two sentences of one story: no disagreement.
            {
              topic: 'within the story',
              sides: [
                { claim: 'surged', source: 1 },
                { claim: 'declined', source: 2 },
              ],
            },
            {
              topic: 'the increase',
              sides: [
                { claim: '90% this year', source: 1 },
                { claim: 'about 90% in a year', source: 3 },
              ],
            },
          ],
        },
      },
    ]);
    const { research, assertConsumed } = researchWithCopies([
      { schemaName: 'research_contradictions', llm: contradictions },
    ]);
    const found = await findContradictions(
      research,
      evidenceOf([
        reference(1, copy, surged),
        reference(2, mirror, surged),
        reference(3, original, 'HCA declined to comment'),
        reference(4, other, 'spending on GLP-1 medicines had climbed sharply, by about 90% in a single year'),
      ]),
    );
    assertConsumed();
    const prompt = contradictions.calls[0]!.prompt;
    expect(prompt.match(/surged 90% this year/g)).toHaveLength(1);
    expect(prompt).toContain(
      `[1] ${original} (${original}) (one source: also at 2 sites with the same text)`,
    );
    expect(prompt).not.toContain(`(${copy})`);
    expect(found.map((item) => item.topic)).toEqual(['the increase']);
    expect(found[0]!.sides.map((side) => side.url)).toEqual([original, other]);
  });

  it('asks nothing when every quote comes from copies of one story', async () => {
    const { research, assertConsumed } = researchWithCopies([]);
    const found = await findContradictions(
      research,
      evidenceOf([reference(1, copy, surged), reference(2, original, 'HCA declined to comment')]),
    );
    assertConsumed();
    expect(found).toEqual([]);
  });
});

describe('the fact-check counts copies of one story as one supporting source', () => {
  it('shows a claim backed by three copies of one wire story as one quote from 1 independent source', async () => {
    const verdicts = createScriptedLlm([{ object: { verdicts: [{ claim: 1, supported: true }] } }]);
    const { research, assertConsumed } = researchWithCopies([
      { schemaName: 'research_claims', llm: createScriptedLlm([{ object: { claims: [] } }]) },
      { schemaName: 'research_claim_check', llm: verdicts },
    ]);
    const references = new ReportReferences();
    const markdown = references.adopt('GLP-1 use at HCA surged 90% this year.[^1][^2][^3]', [
      reference(1, copy, surged),
      reference(2, original, surged),
      reference(3, mirror, surged),
    ]);
    const sections: ReportSection[] = [
      { id: 's1', heading: 'Employers', markdown, questions: [], coverage: 1 },
    ];
    const cycle = createFactCheckCycle();
    await factCheck(research, sections, references, cycle);
    assertConsumed();
    expect(cycle.report).toEqual({ claims: 1, supported: 1, revised: 0, removed: 0 });
    const prompt = verdicts.calls[0]!.prompt;
    expect(prompt).toContain('[cites 1 independent source]');
    // The claim once, the quote once (not three times).
    expect(prompt.split(`"${surged}"`)).toHaveLength(2);
  });

  it('counts two stories as two sources', async () => {
    const verdicts = createScriptedLlm([{ object: { verdicts: [{ claim: 1, supported: true }] } }]);
    const { research, assertConsumed } = researchWithCopies([
      { schemaName: 'research_claims', llm: createScriptedLlm([{ object: { claims: [] } }]) },
      { schemaName: 'research_claim_check', llm: verdicts },
    ]);
    const references = new ReportReferences();
    const markdown = references.adopt('GLP-1 use at HCA rose about 90%.[^1][^2]', [
      reference(1, copy, surged),
      reference(2, other, 'by about 90% in a single year'),
    ]);
    const cycle = createFactCheckCycle();
    await factCheck(
      research,
      [{ id: 's1', heading: 'Employers', markdown, questions: [], coverage: 1 }],
      references,
      cycle,
    );
    assertConsumed();
    expect(verdicts.calls[0]!.prompt).toContain('[cites 2 independent sources]');
  });
});

describe("a coverage item's sources are stories, not copies", () => {
  it('keeps the same quote read on two copies once, and a second story as a second source', async () => {
    const librarian = createScriptedLlm([
      {
        object: {
          items: [
            {
              id: 1,
              covered: true,
              quotes: [
                { url: copy, quote: surged },
                { url: original, quote: surged },
                { url: other, quote: 'by about 90% in a single year' },
              ],
              value: '90%',
            },
          ],
        },
      },
    ]);
    const { research, assertConsumed } = researchWithCopies([
      { schemaName: 'librarian_check', llm: librarian },
    ]);
    const [item] = await librarianCheck(research.task, {
      section: { id: 's1', heading: 'Employers', questions: ['How fast did GLP-1 use grow at HCA?'] },
      items: [
        { target: 'How fast did GLP-1 use grow at HCA?', kind: 'question', covered: false, evidence: [] },
      ],
      findings: [],
      pages: research.task.state.pages.all(),
    });
    assertConsumed();
    expect(item!.covered).toBe(true);
    expect(item!.sources!.map((source) => source.url)).toEqual([original, other]);
    expect(item!.evidence).toHaveLength(2);
  });
});

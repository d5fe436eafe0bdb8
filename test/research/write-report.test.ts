import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-events.js';
import type { Reference } from '../../src/events/deep-search-result.js';
import type { ResearchEvidence } from '../../src/events/research-result.js';
import { createLlmClient } from '../../src/providers/llm/create-llm-client.js';
import { renderReportHtml } from '../../src/research/render-report-html.js';
import { renderReportMarkdown } from '../../src/research/render-report-markdown.js';
import { createResearchContext } from '../../src/research/research-context.js';
import { writeReport } from '../../src/research/write/write-report.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createScriptedLlm, type ScriptedLlm } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { eventsOf } from '../helpers/agent-harness.js';
import {
  heatPumpDrafts,
  heatPumpPages,
  heatPumpSearch,
  heatPumpTexts,
  heatPumpUrls,
  unsupportedClaims,
} from '../helpers/heat-pump-world.js';
import { createScriptRouter } from '../helpers/script-router.js';

const topic = 'How did European heat pump adoption change between 2019 and 2024, and why?';

function reference(index: number, key: keyof typeof heatPumpUrls, quote: string): Reference {
  return { index, url: heatPumpUrls[key], title: key, quote, quoteKind: 'exact' };
}

const evidence: ResearchEvidence = {
  plan: {
    topic,
    title: 'Heat pumps in Europe, 2019–2024',
    language: 'English',
    sections: [
      { id: 's1', heading: 'The market', questions: ['How many heat pumps were sold?'] },
      { id: 's2', heading: 'Policy', questions: ['Which laws mattered?'] },
    ],
    dataPoints: [
      { id: 'd1', description: 'heat pump sales in 2023', strategy: 'web-search', sectionId: 's1' },
    ],
  },
  sections: [
    {
      section: { id: 's1', heading: 'The market', questions: ['How many heat pumps were sold?'] },
      findings: [
        {
          question: 'How many heat pumps were sold?',
          answer: 'About 3 million in 2022.[^1] Down by 5% in 2023[^2], or 7%.[^3]',
          references: [
            reference(1, 'ehpa', 'Heat pump sales in Europe reached 3 million units in 2022'),
            reference(2, 'ehpa', 'Sales fell by 5% in 2023 as gas prices eased'),
            reference(3, 'iea', 'In 2023 heat pump sales in Europe declined by 7 percent'),
          ],
          confidence: 'high',
          runId: 'part-1',
        },
      ],
      coverage: { items: [], ratio: 1, hops: 1 },
    },
    {
      section: { id: 's2', heading: 'Policy', questions: ['Which laws mattered?'] },
      findings: [
        {
          question: 'Which laws mattered?',
          answer: 'Subsidy cuts mattered.[^1]',
          references: [reference(1, 'iea', 'Subsidy cuts in Germany weighed on demand')],
          confidence: 'medium',
          runId: 'part-2',
        },
      ],
      coverage: {
        items: [{ target: 'Which laws mattered?', kind: 'question', covered: false, evidence: [] }],
        ratio: 0,
        hops: 1,
      },
    },
  ],
  contradictions: [],
};

function replies(...objects: unknown[]): ScriptedLlm {
  return createScriptedLlm(objects.map((object) => ({ object })));
}

function verificationSearch(query: string, key: keyof typeof heatPumpUrls, answer: string): ScriptedLlm {
  const quote = heatPumpTexts[key].replace(/\.$/, '');
  return createScriptedLlm([
    scriptedStep.search([query]),
    scriptedStep.visit([heatPumpUrls[key]]),
    scriptedStep.answer(answer, [{ url: heatPumpUrls[key], quote }]),
    scriptedStep.criteria(),
    scriptedStep.evaluation('definitive', true),
  ]);
}

describe('research writer', () => {
  it('writes sections, fact-checks them (one claim removed, one revised), reviews once and suggests follow-ups', async () => {
    const routes = {
      market: replies({ markdown: `## The market\n${heatPumpDrafts.market}` }),
      policy: replies({ markdown: heatPumpDrafts.policy }),
      coherence: replies({
        summary: 'Sales peaked at 3 million units in 2022[^1] and fell in 2023.[^2][^7]',
        sections: [],
        chart: { section: 's1', caption: 'Sales (millions)', mermaid: 'xychart-beta\n  bar [3.0, 2.8]' },
      }),
      contradictions: replies({
        contradictions: [
          {
            topic: 'The 2023 decline',
            sides: [
              { claim: 'down 5%', source: 2 },
              { claim: 'down 7%', source: 3 },
            ],
          },
          {
            topic: 'One source only',
            sides: [
              { claim: 'a', source: 1 },
              { claim: 'b', source: 2 },
            ],
          },
        ],
      }),
      claims: replies(
        {
          claims: [
            { section: 's1', sentence: 'Heat pump sales in Europe reached 3 million units in 2022.[^1]' },
            { section: 's1', sentence: 'Sales fell in 2023.[^2]' },
            { section: 's1', sentence: `${unsupportedClaims.removed}[^1]` },
            { section: 's2', sentence: `${unsupportedClaims.revised}[^3]` },
          ],
        },
        // After the review's revision: the revised claim again, already checked in this cycle.
        { claims: [{ section: 's2', sentence: unsupportedClaims.revision.replace('[^1]', '[^4]') }] },
      ),
      verdicts: replies(
        {
          verdicts: [
            { claim: 1, supported: true },
            { claim: 2, supported: true },
            { claim: 3, supported: false },
            { claim: 4, supported: false },
            // The summary's cited sentence, which the claims list left out.
            { claim: 5, supported: true },
          ],
        },
        // After the review's revision: the new cited sentence the claims list left out.
        { verdicts: [{ claim: 1, supported: true }] },
      ),
      revisions: replies({
        revisions: [
          { claim: 1, action: 'remove', sentence: '' },
          { claim: 2, action: 'revise', sentence: unsupportedClaims.revision },
        ],
      }),
      review: replies({
        approved: false,
        feedback: [{ section: 's2', instruction: 'Connect the law to the 2023 decline.' }],
      }),
      sectionRevision: replies({
        markdown: `${unsupportedClaims.revision.replace('[^1]', '[^4]')} Subsidy cuts in Germany weighed on demand in 2023.[^3]`,
      }),
      followUps: replies({
        questions: ['How did installer capacity evolve?', 'What happened in 2025?', 'How do prices compare?'],
      }),
      popular: verificationSearch(
        'most common heating system Europe',
        'survey',
        'Gas boilers remain the most common heating system in European homes.[^1]',
      ),
      law: verificationSearch(
        'German heating law year',
        'geg',
        'The GEG entered into force in November 2020.[^1]',
      ),
    };
    const llm = createScriptRouter([
      { schemaName: 'research_section', promptIncludes: '<section>\nThe market', llm: routes.market },
      { schemaName: 'research_section', promptIncludes: '<section>\nPolicy', llm: routes.policy },
      { schemaName: 'research_coherence', llm: routes.coherence },
      { schemaName: 'research_contradictions', llm: routes.contradictions },
      { schemaName: 'research_claims', llm: routes.claims },
      { schemaName: 'research_claim_check', llm: routes.verdicts },
      { schemaName: 'research_revision', llm: routes.revisions },
      { schemaName: 'research_review', llm: routes.review },
      { schemaName: 'research_section_revision', llm: routes.sectionRevision },
      { schemaName: 'research_follow_ups', llm: routes.followUps },
      { promptIncludes: unsupportedClaims.removed, llm: routes.popular },
      { promptIncludes: unsupportedClaims.revised, llm: routes.law },
    ]);
    const config = createTestConfig();
    const events: AgentEvent[] = [];
    const research = createResearchContext({
      topic,
      config,
      llm: createLlmClient({ config, createModel: () => llm }),
      search: createFakeSearch(heatPumpSearch),
      reader: createFakeReader(heatPumpPages),
      onEvent: (event) => events.push(event),
    });
    // What the sections' research read: the pages their findings quote.
    for (const key of ['ehpa', 'iea'] as const) {
      research.task.state.pages.add(
        {
          requestedUrl: heatPumpUrls[key],
          url: heatPumpUrls[key],
          title: key,
          markdown: heatPumpTexts[key],
          text: heatPumpTexts[key],
          links: [],
          contentType: 'text/html',
        },
        0,
      );
    }

    const written = await writeReport(research, evidence, {
      trustOf: (host) => (host === 'iea.org' ? 0.9 : undefined),
    });
    llm.assertConsumed();

    // Four claims listed, and two cited sentences the model did not list: the summary's, and the
    // revised section's new one.
    expect(written.factCheck).toEqual({ claims: 6, supported: 4, revised: 1, removed: 1 });
    expect(eventsOf(events, 'fact-check').at(-1)).toMatchObject({
      claims: 6,
      supported: 4,
      revised: 1,
      removed: 1,
    });
    const markdown = renderReportMarkdown(written);
    expect(markdown).not.toContain(unsupportedClaims.removed);
    expect(markdown).not.toContain(unsupportedClaims.revised);
    expect(markdown).toContain(
      "Germany's Buildings Energy Act (GEG) entered into force on 1 November 2020.[^3]",
    );
    expect(markdown).toContain('Subsidy cuts in Germany weighed on demand in 2023.[^4]');
    // The heading the model repeated, the invented source and the summary's unknown footnote are gone.
    expect(written.sections[0]!.markdown).not.toMatch(/^## /);
    expect(markdown).not.toMatch(/\[\^[79]\]/);
    expect(written.summary).toBe('Sales peaked at 3 million units in 2022[^1] and fell in 2023.[^2]');
    expect(markdown).toContain('| 2022 | 3 million[^1] |');
    expect(markdown).toContain('```mermaid\nxychart-beta\n  bar [3.0, 2.8]\n```');

    // Every footnote resolves, every reference is cited, every quote is literally in its source.
    const cited = new Set([...markdown.matchAll(/\[\^(\d+)\](?!:)/g)].map((match) => Number(match[1])));
    expect([...cited].sort()).toEqual(written.references.map((item) => item.index));
    const textOf = new Map<string, string>(
      Object.keys(heatPumpUrls).map((key) => [
        heatPumpUrls[key as keyof typeof heatPumpUrls],
        heatPumpTexts[key as keyof typeof heatPumpTexts],
      ]),
    );
    for (const item of written.references) expect(textOf.get(item.url)).toContain(item.quote);
    expect(written.references.map((item) => item.url)).not.toContain(heatPumpUrls.survey);

    // Sources that disagree, each side with its quote and trust (the profile's, else the heuristic).
    expect(written.contradictions).toEqual([
      {
        topic: 'The 2023 decline',
        sides: [
          {
            claim: 'down 5%',
            url: heatPumpUrls.ehpa,
            quote: 'Sales fell by 5% in 2023 as gas prices eased',
            trust: 0.55,
          },
          {
            claim: 'down 7%',
            url: heatPumpUrls.iea,
            quote: 'In 2023 heat pump sales in Europe declined by 7 percent',
            trust: 0.9,
          },
        ],
      },
    ]);
    expect(markdown).toContain('## Where sources disagree\n\n- **The 2023 decline**');
    expect(written.followUps).toHaveLength(3);
    expect(markdown).toContain('## Follow-up questions\n\n1. How did installer capacity evolve?');

    // Writing is precise: low temperature; sections are written from their own evidence only.
    expect(routes.market.calls[0]!.temperature).toBeLessThanOrEqual(0.2);
    expect(routes.market.calls[0]!.prompt).not.toContain('Subsidy cuts');
    expect(routes.policy.calls[0]!.prompt).toContain('<missing>\n- Which laws mattered?');
    // The review's revision keeps the section (revise, not regenerate) and the claim was not checked twice.
    expect(routes.sectionRevision.calls[0]!.prompt).toContain('Connect the law to the 2023 decline.');
    expect(routes.sectionRevision.calls[0]!.prompt).toContain('Buildings Energy Act');
    expect(routes.verdicts.calls).toHaveLength(2);
    expect(routes.verdicts.calls[1]!.prompt).toContain('Subsidy cuts in Germany weighed on demand in 2023.');
    expect(routes.verdicts.calls[1]!.prompt).not.toContain('Buildings Energy Act');
    expect(eventsOf(events, 'persona').map((event) => event.message)).toContain(
      `removed an unsupported claim: ${unsupportedClaims.removed}`,
    );

    const html = renderReportHtml({ ...written, generatedAt: '2026-11-23' });
    expect(html).toContain('<sup class="fn"><a href="#ref-1">1</a></sup>');
    for (const item of written.references) expect(html).toContain(`<li id="ref-${item.index}">`);
    expect(html).toContain('<pre class="mermaid"><code>xychart-beta');
    expect(html).toContain('<table>');
  });
});

describe('the fact-check of a writer that numbers its footnotes in its own order', () => {
  it('checks every cited sentence though the claims list is empty, and fixes the citation that does not support its sentence', async () => {
    const oneSection: ResearchEvidence = { ...evidence, sections: [evidence.sections[0]!] };
    oneSection.plan = { ...evidence.plan, sections: [evidence.plan.sections[0]!], dataPoints: [] };
    const fell = 'Sales fell by 5% in 2023 as gas prices eased.';
    const routes = {
      // The writer cites the sources in the order it uses them: [^1] for the first it mentions,
      // which is the finding's second source.
      market: replies({
        markdown: `${fell}[^1] Heat pump sales in Europe reached 3 million units in 2022.[^1]`,
      }),
      coherence: replies({ summary: 'Heat pump sales changed after 2022.', sections: [] }),
      contradictions: replies({ contradictions: [] }),
      // The model listing claims finds none: the fact-check used to stop at 0/0 here.
      claims: replies({ claims: [] }),
      verdicts: replies({
        verdicts: [
          { claim: 1, supported: false },
          { claim: 2, supported: true },
        ],
      }),
      revisions: replies({ revisions: [{ claim: 1, action: 'revise', sentence: `${fell}[^1]` }] }),
      review: replies({ approved: true, feedback: [] }),
      followUps: replies({ questions: ['a?', 'b?', 'c?'] }),
      verification: verificationSearch('heat pump sales 2023 decline', 'ehpa', `${fell}[^1]`),
    };
    const llm = createScriptRouter([
      { schemaName: 'research_section', llm: routes.market },
      { schemaName: 'research_coherence', llm: routes.coherence },
      { schemaName: 'research_contradictions', llm: routes.contradictions },
      { schemaName: 'research_claims', llm: routes.claims },
      { schemaName: 'research_claim_check', llm: routes.verdicts },
      { schemaName: 'research_revision', llm: routes.revisions },
      { schemaName: 'research_review', llm: routes.review },
      { schemaName: 'research_follow_ups', llm: routes.followUps },
      { promptIncludes: fell, llm: routes.verification },
    ]);
    const config = createTestConfig();
    const events: AgentEvent[] = [];
    const research = createResearchContext({
      topic,
      config,
      llm: createLlmClient({ config, createModel: () => llm }),
      search: createFakeSearch(heatPumpSearch),
      reader: createFakeReader(heatPumpPages),
      onEvent: (event) => events.push(event),
    });
    research.task.state.pages.add(
      {
        requestedUrl: heatPumpUrls.ehpa,
        url: heatPumpUrls.ehpa,
        title: 'ehpa',
        markdown: heatPumpTexts.ehpa,
        text: heatPumpTexts.ehpa,
        links: [],
        contentType: 'text/html',
      },
      0,
    );

    const written = await writeReport(research, oneSection, { trustOf: () => undefined });
    llm.assertConsumed();

    // Both cited sentences were checked: not 0/0.
    expect(written.factCheck.claims).toBe(2);
    expect(routes.verdicts.calls[0]!.prompt).toContain(fell);
    expect(routes.verdicts.calls[0]!.prompt).toContain('reached 3 million units in 2022');
    // The sentence now cites a quote that says it.
    const markdown = written.sections[0]!.markdown;
    const cites = (sentence: string) =>
      [...markdown.slice(markdown.indexOf(sentence)).matchAll(/^[^[]*\[\^(\d+)\]/g)].map((match) =>
        Number(match[1]),
      )[0];
    const quoteOf = (index: number | undefined) =>
      written.references.find((reference) => reference.index === index)?.quote ?? '';
    expect(quoteOf(cites(fell))).toContain('Sales fell by 5% in 2023');
    expect(quoteOf(cites('Heat pump sales in Europe reached'))).toContain('3 million units in 2022');
  });
});

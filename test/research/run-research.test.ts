import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events/agent-events.js';
import { createLlmClient } from '../../src/providers/llm/create-llm-client.js';
import { runResearch } from '../../src/research/run-research.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createScriptedLlm } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { eventsOf, parasiteHits, parasitePage } from '../helpers/agent-harness.js';

const parasiteUrl = 'https://en.wikipedia.org/wiki/Parasite_(2019_film)';

describe('research mode', () => {
  it('plans, researches a section as a part of the task, and writes a report with verified footnotes', async () => {
    const llm = createScriptedLlm([
      {
        label: 'plan',
        expect: { schemaName: 'research_plan' },
        object: {
          title: 'Parasite at Cannes',
          sections: [{ heading: 'Premiere', questions: ['When did Parasite premiere?'] }],
          dataPoints: [{ description: 'premiere date', strategy: 'web-search', section: 1 }],
        },
      },
      scriptedStep.search(['Parasite premiere']),
      scriptedStep.visit([parasiteUrl]),
      scriptedStep.answer('Parasite premiered at Cannes on 21 May 2019.[^1]', [
        { url: parasiteUrl, quote: 'premiered at the 2019 Cannes Film Festival on 21 May 2019' },
      ]),
      scriptedStep.criteria(),
      scriptedStep.evaluation('definitive', true),
      {
        label: 'librarian',
        expect: {
          schemaName: 'librarian_check',
          promptIncludes: 'premiered at the 2019 Cannes Film Festival',
        },
        object: {
          items: [1, 2].map((id) => ({
            id,
            covered: true,
            quotes: [
              { url: parasiteUrl, quote: 'premiered at the 2019 Cannes Film Festival on 21 May 2019' },
            ],
            value: id === 2 ? '21 May 2019' : '',
          })),
        },
      },
      {
        expect: { schemaName: 'research_section' },
        object: { markdown: 'Parasite premiered at Cannes on 21 May 2019.[^1]' },
      },
      {
        expect: { schemaName: 'research_coherence' },
        object: { summary: 'It premiered at Cannes in May 2019.[^1]', sections: [], chart: null },
      },
      {
        expect: { schemaName: 'research_claims' },
        object: { claims: [{ section: 's1', sentence: 'Parasite premiered at Cannes on 21 May 2019.[^1]' }] },
      },
      {
        // The listed claim, and the summary's cited sentence.
        expect: { schemaName: 'research_claim_check' },
        object: {
          verdicts: [
            { claim: 1, supported: true },
            { claim: 2, supported: true },
          ],
        },
      },
      { expect: { schemaName: 'research_review' }, object: { approved: true, feedback: [] } },
      {
        expect: { schemaName: 'research_follow_ups' },
        object: {
          questions: ['Who distributed it?', 'How did it fare at the box office?', 'Which awards followed?'],
        },
      },
    ]);
    const config = createTestConfig();
    const events: AgentEvent[] = [];
    const report = await runResearch({
      topic: 'The premiere of Parasite',
      config,
      llm: createLlmClient({ config, createModel: () => llm }),
      search: createFakeSearch({ 'Parasite premiere': [parasiteHits[0]!] }),
      reader: createFakeReader({ [parasiteUrl]: parasitePage }),
      onEvent: (event) => events.push(event),
    });
    llm.assertConsumed();
    expect(report.title).toBe('Parasite at Cannes');
    expect(report.plan.dataPoints).toEqual([
      { id: 'd1', description: 'premiere date', strategy: 'web-search', sectionId: 's1' },
    ]);
    expect(report.sections).toHaveLength(1);
    expect(report.references).toHaveLength(1);
    expect(parasitePage).toContain(report.references[0]!.quote);
    expect(report.markdown).toContain('## Premiere');
    expect(report.markdown).toContain('[^1]: "premiered at the 2019 Cannes Film Festival on 21 May 2019"');
    expect(eventsOf(events, 'persona').map((event) => event.persona)).toContain('strategist');
    // The section's run reports through the task with its own run id.
    const runIds = new Set(events.map((event) => event.runId));
    expect(runIds.size).toBe(2);
    expect(events.at(-1)?.type).toBe('research-end');
    expect(report.usage.byRole.planner?.calls).toBe(1);
    expect(report.usage.byRole.agent?.calls).toBe(3);
    expect(report.usage.byRole.librarian?.calls).toBe(1);
    expect(eventsOf(events, 'coverage')).toMatchObject([{ section: 's1', hop: 1, ratio: 1, missing: [] }]);
    // The part's run-start says what it is for; the section's state changes follow as events.
    const [taskId] = runIds;
    expect(eventsOf(events, 'run-start').filter((event) => event.runId !== taskId)).toMatchObject([
      { parentRunId: taskId, part: { purpose: 'section', section: 's1', hop: 1 } },
    ]);
    expect(eventsOf(events, 'research-section')).toEqual([
      expect.objectContaining({
        section: 's1',
        state: 'gathered',
        covered: 2,
        total: 2,
        hops: 1,
        stopped: 'covered',
        sources: 1,
      }),
      expect.objectContaining({ section: 's1', state: 'written', sources: 1 }),
    ]);
    expect(report.usage.byRole.writer?.calls).toBe(6);
    expect(report.factCheck).toEqual({ claims: 2, supported: 2, revised: 0, removed: 0 });
    expect(report.followUps).toHaveLength(3);
  });
});

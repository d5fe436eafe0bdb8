import { describe, expect, it } from 'vitest';
import { inFlatShape, scriptedStep } from '../../src/testing/scripted-steps.js';
import { eventsOf, parasiteHits, parasitePage, runAgent } from '../helpers/agent-harness.js';

const parasiteUrl = 'https://en.wikipedia.org/wiki/Parasite_(2019_film)';

describe('replies in the shapes small models write', () => {
  it('are coerced and counted as repairs, without a re-ask', async () => {
    const { result, llm } = await runAgent('When did Parasite premiere?', {
      search: { 'parasite premiere': parasiteHits },
      pages: { [parasiteUrl]: parasitePage },
      config: { budget: { maxSteps: 3 } },
      steps: [
        // No think; `query` (one string) for `queries`.
        {
          expect: { schemaName: 'agent_action' },
          object: { action: 'search', search: { query: 'parasite premiere' } },
        },
        // `urls` for `targets`.
        {
          expect: { schemaName: 'agent_action' },
          object: { think: 'Read it.', action: 'visit', visit: { urls: [parasiteUrl] } },
        },
        // `answer` for `text`, `exactQuote` for `quote`.
        {
          expect: { schemaName: 'final_answer' },
          object: {
            think: 'Found it.',
            answer: {
              answer: 'Parasite premiered at Cannes on 21 May 2019.[^1]',
              references: [
                {
                  url: parasiteUrl,
                  exactQuote: 'The film premiered at the 2019 Cannes Film Festival on 21 May 2019',
                },
              ],
            },
          },
        },
      ],
    });
    llm.assertConsumed();
    expect(llm.calls).toHaveLength(3);
    expect(result.usage.parseFailures).toBe(0);
    expect(result.usage.repairs).toBeGreaterThanOrEqual(5);
    expect(result.answer).toContain('21 May 2019');
    expect(result.references).toHaveLength(1);
    expect(result.references[0]!.url).toBe(parasiteUrl);
  });

  it('a rambling think, sources cited by number as strings and by copied URL: answered without a re-ask', async () => {
    const { result, llm } = await runAgent('When did Parasite premiere?', {
      search: { 'parasite premiere': parasiteHits },
      pages: { [parasiteUrl]: parasitePage },
      config: { budget: { maxSteps: 3 } },
      steps: [
        {
          expect: { schemaName: 'agent_action' },
          object: {
            think: 'Search. '.repeat(200),
            action: 'search',
            search: { queries: ['parasite premiere'] },
          },
        },
        {
          expect: { schemaName: 'agent_action', promptIncludes: `[1] weight` },
          object: { think: 'Read it.', action: 'visit', visit: { targets: ['[1]'] } },
        },
        {
          expect: { schemaName: 'final_answer', promptIncludes: `<source n="1" url="${parasiteUrl}"` },
          object: {
            think: 'Found it.',
            answer: {
              text: 'Parasite premiered at Cannes[^1] on 21 May 2019[^2].',
              references: [
                { source: '1', exactQuote: 'The film premiered at the 2019 Cannes Film Festival' },
                { url: parasiteUrl, quote: 'on 21 May 2019' },
              ],
            },
          },
        },
      ],
    });
    llm.assertConsumed();
    expect(llm.calls).toHaveLength(3);
    expect(result.usage.parseFailures).toBe(0);
    expect(result.references.map((reference) => reference.url)).toEqual([parasiteUrl, parasiteUrl]);
  });

  it('steps in the nested shape the schema asks for, or flat: the same run, flat ones counted as repairs', async () => {
    const answer = 'Parasite premiered at Cannes on 21 May 2019.[^1]';
    const run = (shape: (step: ReturnType<typeof scriptedStep.search>) => typeof step) =>
      runAgent('When did Parasite premiere?', {
        search: { 'parasite premiere': parasiteHits },
        pages: { [parasiteUrl]: parasitePage },
        steps: [
          shape(scriptedStep.search(['parasite premiere'])),
          shape(scriptedStep.visit([parasiteUrl])),
          shape(
            scriptedStep.answer(answer, [
              {
                url: parasiteUrl,
                quote: 'The film premiered at the 2019 Cannes Film Festival on 21 May 2019',
              },
            ]),
          ),
          scriptedStep.criteria(),
          scriptedStep.evaluation('definitive', true),
        ],
      });
    const nested = await run((step) => step);
    const flat = await run(inFlatShape);
    for (const { llm } of [nested, flat]) llm.assertConsumed();
    expect(flat.result.answer).toBe(nested.result.answer);
    expect(flat.result.answer).toContain('21 May 2019');
    expect(nested.result.usage.parseFailures + flat.result.usage.parseFailures).toBe(0);
    expect(flat.result.usage.repairs - nested.result.usage.repairs).toBe(3);
    // The answer's draft streams from either shape.
    for (const { events } of [nested, flat]) {
      const draft = eventsOf(events, 'answer-draft-delta').map((event) => event.delta);
      expect(draft.join('')).toBe(answer);
    }
  });
});

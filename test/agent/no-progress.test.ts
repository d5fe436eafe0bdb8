import { describe, expect, it } from 'vitest';
import { ProgressStreak } from '../../src/agent/state/progress-streak.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { eventsOf, oscarsPage, parasiteHits, parasitePage, runAgent } from '../helpers/agent-harness.js';

const question = 'Who directed the film that won Best Picture the year Parasite premiered?';
const parasiteUrl = 'https://en.wikipedia.org/wiki/Parasite_(2019_film)';
const oscarsUrl = 'https://en.wikipedia.org/wiki/91st_Academy_Awards';
const pages = { [parasiteUrl]: parasitePage, [oscarsUrl]: oscarsPage };
const search = { 'Parasite premiere': [parasiteHits[0]!], 'Best Picture 2019': [parasiteHits[1]!] };

describe('steps that find nothing new', () => {
  it('a good run with one repeated search is not cut short', async () => {
    const { result, llm, events } = await runAgent(question, {
      search,
      pages,
      config: { retrieval: { queryRewrite: false } },
      steps: [
        scriptedStep.search(['Parasite premiere']),
        scriptedStep.search(['Parasite premiere']),
        {
          ...scriptedStep.visit([parasiteUrl]),
          // Switched off for one step after the repeat, with the repeat said in plain words.
          expect: {
            schemaName: 'agent_action',
            promptExcludes: '<action-search>',
            promptIncludes: 'nothing new was searched: the query repeats "Parasite premiere" (step 1)',
          },
        },
        scriptedStep.search(['Best Picture 2019']),
        scriptedStep.visit([oscarsUrl]),
        scriptedStep.answer('Peter Farrelly directed Green Book[^1].', [
          { url: oscarsUrl, quote: 'Green Book won Best Picture. The film was directed by Peter Farrelly.' },
        ]),
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
    expect(result.origin).toBe('evaluated');
    expect(result.budget.exhausted).toBeNull();
    expect(eventsOf(events, 'warning').map((event) => event.message)).toEqual([
      'no progress: the query was searched before',
    ]);
  });

  it('a visit of pages read before names the best unread ones, and two in a row switch both actions off', async () => {
    const { llm } = await runAgent(question, {
      search: { 'Parasite premiere': parasiteHits },
      pages,
      config: { retrieval: { queryRewrite: false } },
      steps: [
        scriptedStep.search(['Parasite premiere']),
        scriptedStep.visit([parasiteUrl]),
        scriptedStep.visit([parasiteUrl]),
        scriptedStep.search(['Parasite premiere']),
        {
          ...scriptedStep.answer('Green Book won Best Picture[^1].', [
            {
              url: oscarsUrl,
              quote: 'Green Book won Best Picture at the ceremony held on February 24, 2019.',
            },
          ]),
          expect: {
            schemaName: 'agent_action',
            promptExcludes: ['<action-search>', '<action-visit>'],
            promptIncludes: [
              `the page named was read before; choose from the unread ones: [2] ${oscarsUrl} "91st Academy Awards - Wikipedia"`,
              'Untried angles: words of the question no query used yet: "directed", "film", "won", "best", "picture", "year"',
              '2 steps in a row found nothing new, so visit and search are switched off for the next step.',
            ],
          },
        },
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
  });
});

describe('ProgressStreak', () => {
  it('stalls after three in a row or six in all; a step that did something new breaks the streak', () => {
    const streak = new ProgressStreak();
    streak.record('search', true);
    streak.record('visit', true);
    expect(streak.streakActions).toEqual(['search', 'visit']);
    streak.record('none', false);
    expect(streak.inARow).toBe(2);
    streak.record('visit', false);
    expect(streak.inARow).toBe(0);
    for (const action of ['search', 'visit', 'search', 'reflect'] as const) {
      expect(streak.stalled).toBe(false);
      streak.record(action, true);
      if (action !== 'reflect') streak.record('visit', false);
    }
    expect(streak.total).toBe(6);
    expect(streak.stalled).toBe(true);
    const restored = ProgressStreak.fromJSON(JSON.parse(JSON.stringify(streak)));
    expect(restored.total).toBe(6);
    expect(ProgressStreak.fromJSON(undefined).total).toBe(0);
  });
});

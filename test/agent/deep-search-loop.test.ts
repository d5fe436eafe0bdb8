import { describe, expect, it } from 'vitest';
import { AbortedError, AuthenticationError, ProviderError } from '../../src/core/errors/index.js';
import type { SearchProvider } from '../../src/providers/spec/search-provider.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { eventsOf, oscarsPage, parasiteHits, parasitePage, runAgent } from '../helpers/agent-harness.js';

const question = 'Who directed the film that won Best Picture the year Parasite premiered?';
const parasiteUrl = 'https://en.wikipedia.org/wiki/Parasite_(2019_film)';
const oscarsUrl = 'https://en.wikipedia.org/wiki/91st_Academy_Awards';
const pages = { [parasiteUrl]: parasitePage, [oscarsUrl]: oscarsPage };
const search = { 'Parasite premiere': [parasiteHits[0]!], 'Best Picture 2019': [parasiteHits[1]!] };
const goodAnswer = scriptedStep.answer(
  'Peter Farrelly directed Green Book[^1], which won Best Picture in 2019, the year Parasite premiered at Cannes[^2].',
  [
    { url: oscarsUrl, quote: 'Green Book won Best Picture. The film was directed by Peter Farrelly.' },
    { url: parasiteUrl, quote: 'premiered at the 2019 cannes film festival on 21 may 2019' },
  ],
);

describe('the deep search loop', () => {
  it('searches, reads, answers with verified quotes, and passes evaluation', async () => {
    const { result, llm, events } = await runAgent(question, {
      search,
      pages,
      steps: [
        scriptedStep.search(['Parasite premiere', 'Best Picture 2019']),
        scriptedStep.visit([parasiteUrl, oscarsUrl]),
        goodAnswer,
        scriptedStep.criteria({ strict: true }),
        scriptedStep.evaluation('definitive', true),
        scriptedStep.evaluation('strict', true),
      ],
    });
    llm.assertConsumed();
    expect(result.origin).toBe('evaluated');
    expect(result.confidence).toBe('high');
    expect(result.steps).toBe(3);
    expect(result.answer).toContain('[^1]');
    expect(result.answer).toContain('[^2]');
    expect(result.references.map((reference) => reference.url)).toEqual([oscarsUrl, parasiteUrl]);
    expect(result.references[1]!.quote).toBe('premiered at the 2019 Cannes Film Festival on 21 May 2019');
    expect(result.references[0]!.title).toBe('91st Academy Awards');
    expect(result.usage.byRole.agent?.calls).toBe(3);
    expect(result.usage.byRole.evaluator?.calls).toBe(3);
    expect(result.usage.searchCalls).toBe(2);
    expect(result.usage.readCalls).toBe(2);
    expect(result.usage.totalTokens).toBe(result.usage.promptTokens + result.usage.completionTokens);
    expect(result.visitedUrls.sort()).toEqual([oscarsUrl, parasiteUrl].sort());
    expect(eventsOf(events, 'read-end').every((event) => event.ok)).toBe(true);
    expect(
      eventsOf(events, 'answer-delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe(result.answer);
    expect(events.at(-1)?.type).toBe('run-end');
  });

  it('on a failed evaluation: analyses, bans answer for one step, learns, retries and passes', async () => {
    const { result, llm, events } = await runAgent(question, {
      search,
      pages,
      steps: [
        scriptedStep.search(['Parasite premiere', 'Best Picture 2019']),
        scriptedStep.visit([parasiteUrl, oscarsUrl]),
        scriptedStep.answer('It may have been Green Book[^1].', [
          { url: oscarsUrl, quote: 'Green Book won Best Picture.' },
        ]),
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', false, 'Name the director plainly.'),
        scriptedStep.analysis('Read the Oscars page for the director and state it plainly.'),
        {
          ...scriptedStep.reflect(['Who directed Green Book?']),
          expect: {
            schemaName: 'agent_action',
            promptExcludes: '<action-answer>',
            promptIncludes: ['<bad-attempts>', 'state it plainly'],
          },
        },
        scriptedStep.answer('Peter Farrelly directed it.[^1]', [
          { url: oscarsUrl, quote: 'The film was directed by Peter Farrelly.' },
        ]),
        { ...goodAnswer, expect: { schemaName: 'agent_action', promptIncludes: 'Who directed Green Book?' } },
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
    expect(result.origin).toBe('evaluated');
    expect(result.budget.failedAttempts).toBe(1);
    expect(result.usage.byRole.analyzer?.calls).toBe(1);
    expect(eventsOf(events, 'answer-rejected')[0]?.improvement).toContain('state it plainly');
    const rejectedSchema = llm.calls[6]!.responseFormat as {
      schema: { properties: Record<string, unknown> };
    };
    expect(Object.keys(rejectedSchema.schema.properties)).not.toContain('answer');
  });

  it('answers a trivial question at step 1 without searching or evaluating', async () => {
    const { result, llm } = await runAgent('What is 1+1?', { steps: [scriptedStep.answer('1 + 1 = 2.')] });
    llm.assertConsumed();
    expect(result).toMatchObject({
      answer: '1 + 1 = 2.',
      origin: 'direct',
      confidence: 'high',
      steps: 1,
      references: [],
    });
    expect(result.usage.searchCalls).toBe(0);
  });

  it('never accepts a step-1 factual answer from memory unjudged: a failing judge rejects it', async () => {
    const { result, llm, events } = await runAgent('Who directed Green Book?', {
      search,
      pages,
      config: { budget: { maxSteps: 3 } },
      steps: [
        scriptedStep.answer('Peter Farrelly.'),
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', false, 'Search for a source that names the director.'),
        scriptedStep.analysis('Search for the film and quote the page.'),
        {
          ...scriptedStep.search(['Green Book director']),
          expect: { schemaName: 'agent_action', promptIncludes: '<bad-attempts>' },
        },
        scriptedStep.finalAnswer('Peter Farrelly.'),
      ],
    });
    llm.assertConsumed();
    expect(eventsOf(events, 'answer-rejected')).toHaveLength(1);
    expect(result.origin).not.toBe('direct');
  });

  it('a step-1 factual answer from memory that passes its judges is direct but only medium confidence', async () => {
    const { result, llm } = await runAgent('Who directed Green Book?', {
      steps: [scriptedStep.answer('Peter Farrelly.'), ...scriptedStep.memoryAnswerJudged()],
    });
    llm.assertConsumed();
    expect(result).toMatchObject({ origin: 'direct', confidence: 'medium', steps: 1 });
    expect(result.confidenceReason).toContain('from memory');
    expect(result.usage.byRole.evaluator?.calls).toBe(2);
  });

  it('with noDirectAnswer, answering is not offered before anything is known', async () => {
    const { llm } = await runAgent('What is 1+1?', {
      config: { agent: { noDirectAnswer: true }, budget: { maxSteps: 2 } },
      steps: [
        {
          ...scriptedStep.search(['1+1']),
          expect: { schemaName: 'agent_action', promptExcludes: '<action-answer>' },
        },
        scriptedStep.finalAnswer('2'),
      ],
    });
    llm.assertConsumed();
  });

  it('gates actions in both prompt and schema: no visit without URLs', async () => {
    const { llm } = await runAgent(question, { steps: [scriptedStep.answer('Peter Farrelly.')] });
    const first = llm.calls[0]!;
    expect(first.system).not.toContain('<action-visit>');
    expect(first.system).toContain('<action-search>');
    type Branch = { properties: { action: { const: string } } };
    const schema = first.responseFormat as { schema: { properties: { step: { anyOf: Branch[] } } } };
    const actions = schema.schema.properties.step.anyOf.map((branch) => branch.properties.action.const);
    expect(actions).toEqual(['search', 'reflect', 'answer']);
  });

  it('works through gap questions and returns to the original question', async () => {
    const { llm, events } = await runAgent(question, {
      search,
      pages,
      config: { budget: { maxSteps: 5 } },
      steps: [
        scriptedStep.reflect(['When did Parasite premiere?', 'Which film won Best Picture in 2019?']),
        {
          ...scriptedStep.search(['Parasite premiere']),
          expect: { promptIncludes: '<question>\nWhen did Parasite premiere?' },
        },
        {
          ...scriptedStep.search(['Best Picture 2019']),
          expect: { promptIncludes: '<question>\nWhich film won Best Picture in 2019?' },
        },
        { ...scriptedStep.visit([oscarsUrl]), expect: { promptIncludes: `<question>\n${question}` } },
        scriptedStep.finalAnswer('Peter Farrelly.[^1]', [
          { url: oscarsUrl, quote: 'directed by Peter Farrelly' },
        ]),
      ],
    });
    llm.assertConsumed();
    expect(eventsOf(events, 'step-start').map((event) => event.question)).toEqual([
      question,
      'When did Parasite premiere?',
      'Which film won Best Picture in 2019?',
      question,
      question,
    ]);
  });

  it('stores an answer to a gap question as knowledge, without evaluating it', async () => {
    const { llm } = await runAgent(question, {
      search,
      pages,
      config: { budget: { maxSteps: 4 } },
      steps: [
        scriptedStep.reflect(['Which film won Best Picture in 2019?']),
        scriptedStep.answer('Green Book won Best Picture in 2019.'),
        {
          ...scriptedStep.search(['Green Book director']),
          expect: { promptIncludes: 'A: Green Book won Best Picture in 2019.' },
        },
        scriptedStep.finalAnswer('Peter Farrelly.'),
      ],
    });
    llm.assertConsumed();
  });
});

describe('budgets and the forced final answer', () => {
  it('stops regular steps at maxSteps - 1 and forces the final answer at maxSteps', async () => {
    const { result, llm, events } = await runAgent(question, {
      search,
      pages,
      config: { budget: { maxSteps: 3 } },
      steps: [
        scriptedStep.search(['Parasite premiere']),
        scriptedStep.visit([parasiteUrl]),
        {
          ...scriptedStep.finalAnswer('Bong Joon-ho premiered Parasite in 2019.[^1]', [
            { url: parasiteUrl, quote: 'directed by Bong Joon-ho' },
          ]),
          expect: {
            schemaName: 'final_answer',
            promptIncludes: ['the step budget is spent', 'MUST answer now'],
          },
        },
      ],
    });
    llm.assertConsumed();
    expect(result.steps).toBe(3);
    expect(result.origin).toBe('forced');
    expect(result.confidence).toBe('medium');
    expect(result.budget).toMatchObject({
      exhausted: 'steps',
      finalAnswerForced: true,
      stepsUsed: 3,
      maxSteps: 3,
    });
    expect(result.usage.byRole.beast?.calls).toBe(1);
    expect(eventsOf(events, 'step-start').at(-1)?.final).toBe(true);
  });

  it('forces the final answer when 85% of the token budget is used', async () => {
    const { result, llm } = await runAgent(question, {
      search,
      config: { budget: { maxTokens: 1000 } },
      steps: [
        { ...scriptedStep.search(['Parasite premiere']), usage: { input: 880, output: 10 } },
        scriptedStep.finalAnswer('Peter Farrelly.'),
      ],
    });
    llm.assertConsumed();
    expect(result.budget.exhausted).toBe('tokens');
    expect(result.confidence).toBe('low');
  });

  it('forces the final answer after maxAttempts rejected answers', async () => {
    const { result, llm } = await runAgent(question, {
      search,
      pages,
      config: { budget: { maxAttempts: 1 } },
      steps: [
        scriptedStep.search(['Best Picture 2019']),
        scriptedStep.visit([oscarsUrl]),
        scriptedStep.answer('Maybe Green Book.[^1]', [
          { url: oscarsUrl, quote: 'Green Book won Best Picture.' },
        ]),
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', false, 'commit'),
        scriptedStep.analysis('Name the director.'),
        {
          ...scriptedStep.finalAnswer('Peter Farrelly.[^1]', [
            { url: oscarsUrl, quote: 'directed by Peter Farrelly' },
          ]),
          expect: { promptIncludes: 'too many answers were rejected' },
        },
      ],
    });
    llm.assertConsumed();
    expect(result.budget.exhausted).toBe('attempts');
    expect(result.references[0]?.quote).toBe('directed by Peter Farrelly');
  });

  it('stops regular steps when time runs short, and still answers within the time budget', async () => {
    const started = Date.now();
    const { result } = await runAgent(question, {
      config: { budget: { maxTimeSeconds: 1 } },
      steps: [
        { ...scriptedStep.search(['slow']), delayMs: 5000 },
        scriptedStep.finalAnswer('Peter Farrelly.'),
      ],
    });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.budget.exhausted).toBe('time');
    expect(result.origin).toBe('forced');
  });

  it('falls back to the last rejected answer when even the final answer runs out of time', async () => {
    const started = Date.now();
    const { result } = await runAgent(question, {
      search,
      pages,
      config: { budget: { maxTimeSeconds: 1.5, maxAttempts: 5 } },
      steps: [
        scriptedStep.search(['Best Picture 2019']),
        scriptedStep.visit([oscarsUrl]),
        scriptedStep.answer('Probably Peter Farrelly.[^1]', [
          { url: oscarsUrl, quote: 'directed by Peter Farrelly' },
        ]),
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', false, 'commit'),
        scriptedStep.analysis('Commit.'),
        { ...scriptedStep.search(['slow']), delayMs: 5000 },
        { ...scriptedStep.finalAnswer('never'), delayMs: 5000 },
      ],
    });
    expect(Date.now() - started).toBeLessThan(2200);
    expect(result).toMatchObject({
      origin: 'fallback',
      confidence: 'low',
      answer: 'Probably Peter Farrelly.[^1]',
    });
    expect(result.references[0]?.url).toBe(oscarsUrl);
  });
});

describe('cancellation and provider failures', () => {
  it('stops within a second when the signal aborts mid-call', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await runAgent(question, {
      signal: controller.signal,
      steps: [{ ...scriptedStep.search(['x']), delayMs: 10_000 }],
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('stops the run when search rejects its key, instead of treating it as no results', async () => {
    const searchProvider: SearchProvider = {
      specificationVersion: 'v1',
      id: 'locked',
      search: async () => {
        throw new AuthenticationError('search rejected the key: check BRAVE_API_KEY', {
          providerId: 'brave',
          statusCode: 401,
        });
      },
    };
    const error = await runAgent(question, { searchProvider, steps: [scriptedStep.search(['x'])] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AuthenticationError);
  });

  it('records a failing search and carries on once something was found', async () => {
    let calls = 0;
    const searchProvider: SearchProvider = {
      specificationVersion: 'v1',
      id: 'flaky',
      search: async () => {
        if (++calls === 1) return [parasiteHits[0]!];
        throw new ProviderError('search answered HTTP 500', { providerId: 'flaky', statusCode: 500 });
      },
    };
    const { result, events, llm } = await runAgent(question, {
      searchProvider,
      config: { budget: { maxSteps: 3 } },
      steps: [
        scriptedStep.search(['x']),
        scriptedStep.search(['y']),
        { ...scriptedStep.finalAnswer('Unknown.'), expect: { promptIncludes: 'HTTP 500' } },
      ],
    });
    llm.assertConsumed();
    expect(eventsOf(events, 'search-end')[1]?.failures[0]?.error).toContain('HTTP 500');
    expect(result.origin).toBe('forced');
  });

  it('stops with the provider error when every search fails and nothing was found or read', async () => {
    const searchProvider: SearchProvider = {
      specificationVersion: 'v1',
      id: 'down',
      search: async () => {
        throw new ProviderError('cannot reach SearXNG at http://127.0.0.1:9', { providerId: 'searxng' });
      },
    };
    const llm = { steps: [scriptedStep.search(['x', 'y'])] };
    const error = await runAgent(question, { searchProvider, ...llm }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toContain('cannot reach SearXNG');
  });

  it('marks a page that cannot be read as bad and does not offer it again', async () => {
    const missing = 'https://example.org/missing';
    const { llm, events } = await runAgent(question, {
      search: { q: [{ url: missing, title: 'Missing', snippet: 'gone' }] },
      config: { budget: { maxSteps: 3 } },
      steps: [
        scriptedStep.search(['q']),
        scriptedStep.visit([missing]),
        {
          ...scriptedStep.finalAnswer('Unknown.'),
          expect: { promptIncludes: 'could not read https://example.org/missing' },
        },
      ],
    });
    llm.assertConsumed();
    expect(eventsOf(events, 'read-end')[0]).toMatchObject({ ok: false, url: missing });
  });
});

describe('language and history', () => {
  it('tells the model to answer in the language of the question', async () => {
    const { llm } = await runAgent(
      "Qui a réalisé le film qui a remporté l'Oscar du meilleur film l'année de la première de Parasite ?",
      {
        steps: [scriptedStep.answer('Peter Farrelly.')],
      },
    );
    expect(llm.calls[0]!.system).toContain('in French, the language of the question');
  });

  it('gives earlier chat turns to the agent as knowledge', async () => {
    const { llm } = await runAgent('And who wrote it?', {
      history: [{ question: 'Which film won Best Picture in 2019?', answer: 'Green Book.' }],
      steps: [
        {
          ...scriptedStep.answer('Nick Vallelonga and others.'),
          expect: { promptIncludes: 'A: Green Book.' },
        },
        // An answer from memory to a factual question is judged before it is accepted.
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
  });
});

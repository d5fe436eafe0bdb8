import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { Budget } from '../../src/agent/budget.js';
import { prepareRun } from '../../src/agent/run-agent.js';
import { runLoop } from '../../src/agent/run-loop.js';
import { createSharedKnowledge } from '../../src/agent/state/agent-state.js';
import { ProviderError } from '../../src/core/errors/index.js';
import { createLlmClient } from '../../src/providers/llm/create-llm-client.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createScriptedLlm, type ScriptedStep } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { eventsOf, oscarsPage, parasiteHits, parasitePage, runAgent } from '../helpers/agent-harness.js';

const question = 'Who directed the film that won Best Picture the year Parasite premiered?';
const parasiteUrl = 'https://en.wikipedia.org/wiki/Parasite_(2019_film)';
const oscarsUrl = 'https://en.wikipedia.org/wiki/91st_Academy_Awards';
const pages = { [parasiteUrl]: parasitePage, [oscarsUrl]: oscarsPage };
const search = { 'Parasite premiere': [parasiteHits[0]!], 'Best Picture 2019': [parasiteHits[1]!] };

const serverError = () =>
  new APICallError({
    message: 'upstream exploded',
    url: 'http://127.0.0.1:9/v1/chat/completions',
    requestBodyValues: {},
    statusCode: 500,
  });
const failing = (step: ScriptedStep): ScriptedStep => ({ ...step, error: serverError() });
const firstTwoSteps = [
  scriptedStep.search(['Parasite premiere', 'Best Picture 2019']),
  scriptedStep.visit([parasiteUrl, oscarsUrl]),
];

describe('error policy', () => {
  it('a step whose LLM call fails after its retries becomes a warning, and the run goes on to an answer', async () => {
    const { result, llm, events } = await runAgent(question, {
      search,
      pages,
      steps: [
        ...firstTwoSteps,
        failing(scriptedStep.answer('x')),
        {
          ...scriptedStep.answer('Peter Farrelly directed Green Book[^1].', [
            { url: oscarsUrl, quote: 'The film was directed by Peter Farrelly.' },
          ]),
          expect: { schemaName: 'agent_action', promptIncludes: 'this step failed' },
        },
        scriptedStep.criteria(),
        scriptedStep.evaluation('definitive', true),
      ],
    });
    llm.assertConsumed();
    expect(result.origin).toBe('evaluated');
    expect(result.warnings.some((warning) => warning.startsWith('step 3 failed'))).toBe(true);
    expect(eventsOf(events, 'warning').map((event) => event.step)).toContain(3);
    const failedCall = eventsOf(events, 'llm-call').find((event) => event.outcome === 'error');
    expect(failedCall).toMatchObject({ step: 3, role: 'agent' });
  });

  it('a 500 storm from step 3 on ends in an answer built from steps 1-2, quoted from the pages read', async () => {
    const { result, llm } = await runAgent(question, {
      search,
      pages,
      steps: [
        ...firstTwoSteps,
        failing(scriptedStep.answer('x')),
        failing(scriptedStep.answer('x')),
        failing(scriptedStep.answer('x')),
        failing(scriptedStep.finalAnswer('x')),
      ],
    });
    llm.assertConsumed();
    expect(result.origin).toBe('fallback');
    expect(result.confidence).toBe('low');
    expect(result.budget.exhausted).toBe('errors');
    expect(result.references.length).toBeGreaterThan(0);
    for (const reference of result.references) {
      const page = reference.url === oscarsUrl ? oscarsPage : parasitePage;
      expect(page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')).toContain(reference.quote.slice(0, 40));
    }
    expect(result.answer).toContain('[^1]');
    expect(result.warnings.length).toBeGreaterThanOrEqual(3);
  });

  it('an LLM that never answers stops the run with its error (nothing to answer from)', async () => {
    const error = await runAgent(question, { steps: [failing(scriptedStep.search(['x']))] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).statusCode).toBe(500);
  });

  it('an observer that throws is detached and reported; the run and the other observers go on', async () => {
    const llm = createScriptedLlm([scriptedStep.answer('4')]);
    const config = createTestConfig();
    const seen: string[] = [];
    const run = prepareRun({
      question: 'What is 2+2?',
      config,
      llm: createLlmClient({ config, createModel: () => llm }),
      search: createFakeSearch({}),
      reader: createFakeReader({}),
      observers: [
        (event) => {
          if (event.type === 'action') throw new Error('renderer broke');
        },
        (event) => seen.push(`${event.runId}:${event.seq}:${event.type}`),
      ],
    });
    const result = await runLoop(run);
    expect(result.answer).toBe('4');
    expect(result.warnings).toContain('an event observer failed and was detached: renderer broke');
    const sequence = seen.map((line) => Number(line.split(':')[1]));
    expect(sequence).toEqual([...sequence].sort((a, b) => a - b));
    expect(seen.every((line) => line.startsWith(`${result.runId}:`))).toBe(true);
    expect(seen.at(-1)).toMatch(/:run-end$/);
  });
});

describe('runs as parts', () => {
  it('two runs of one task share pages and a parent budget: the second cites what the first read', async () => {
    const config = createTestConfig();
    const parent = new Budget({ config: config.budget });
    const shared = createSharedKnowledge();
    const llm = createScriptedLlm([
      ...firstTwoSteps,
      scriptedStep.answer('Green Book won Best Picture[^1].', [
        { url: oscarsUrl, quote: 'Green Book won Best Picture.' },
      ]),
      scriptedStep.criteria(),
      scriptedStep.evaluation('definitive', true),
      // The second run sees the first run's page as knowledge without reading it again.
      {
        ...scriptedStep.answer('Peter Farrelly[^1].', [
          { url: oscarsUrl, quote: 'The film was directed by Peter Farrelly.' },
        ]),
        expect: { schemaName: 'agent_action', promptIncludes: 'directed by Peter Farrelly' },
      },
      scriptedStep.criteria(),
      scriptedStep.evaluation('definitive', true),
    ]);
    const reader = createFakeReader(pages);
    const parts = {
      config,
      llm: createLlmClient({ config, createModel: () => llm }),
      search: createFakeSearch(search),
      reader,
    };
    const first = await runLoop(
      prepareRun(
        { ...parts, question: 'Which film won Best Picture in 2019?' },
        { budget: parent, knowledge: shared },
      ),
    );
    const second = await runLoop(
      prepareRun(
        { ...parts, question: 'Who directed Green Book?' },
        { budget: parent, knowledge: shared, childLimits: { maxTokens: 50_000 } },
      ),
    );
    llm.assertConsumed();
    expect(first.origin).toBe('evaluated');
    expect(second.origin).toBe('evaluated');
    expect(second.steps).toBe(1);
    expect(second.usage.readCalls).toBe(0);
    expect(parent.tokensUsed).toBe(first.usage.totalTokens + second.usage.totalTokens);
    expect(parent.steps).toBe(first.steps + second.steps);
    expect(parent.available().tokens).toBe(config.budget.maxTokens - parent.tokensUsed);
    parent.dispose();
  });
});

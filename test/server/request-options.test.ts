import { afterEach, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startTestServer, type TestServer } from '../helpers/server-harness.js';

let server: TestServer | undefined;
let searxng: FakeHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  await searxng?.close();
  server = undefined;
  searxng = undefined;
});

describe('chat requests: conversation and deepsearch options', () => {
  it('gives earlier turns to the agent as chat history, without the <think> blocks of earlier answers', async () => {
    server = await startTestServer({
      steps: [
        {
          ...scriptedStep.answer('Nick Vallelonga, Brian Currie and Peter Farrelly.'),
          expect: {
            promptIncludes: ['Which film won Best Picture in 2019?', 'Green Book.', 'And who wrote it?'],
            promptExcludes: ['checked the 91st ceremony', 'You are a helpful assistant'],
          },
        },
        ...scriptedStep.memoryAnswerJudged(),
      ],
    });
    const completion = await server.client.chat.completions.create({
      model: 'deepsearch',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'Which film won Best Picture in 2019?' },
        { role: 'assistant', content: '<think>I checked the 91st ceremony.</think>\nGreen Book.' },
        { role: 'user', content: [{ type: 'text', text: 'And who wrote it?' }] },
      ],
    });
    server.llm.assertConsumed();
    expect(completion.choices[0]!.message.content).toBe('Nick Vallelonga, Brian Currie and Peter Farrelly.');
  });

  it('max_steps caps this run only: the final answer is forced at the cap', async () => {
    server = await startTestServer({
      steps: [scriptedStep.search(['Green Book director']), scriptedStep.finalAnswer('Peter Farrelly.')],
      search: {
        'Green Book director': [
          {
            url: 'https://example.org/green-book',
            title: 'Green Book',
            snippet: 'Directed by Peter Farrelly.',
          },
        ],
      },
    });
    const completion = await server.client.chat.completions.create({
      model: 'deepsearch',
      messages: [{ role: 'user', content: 'Who directed Green Book?' }],
      max_steps: 2,
    } as never);
    server.llm.assertConsumed();
    expect(completion.choices[0]!.message.content).toBe('Peter Farrelly.');
    expect(
      (completion as unknown as { deepsearch: { origin: string; steps: number } }).deepsearch,
    ).toMatchObject({
      origin: 'forced',
      steps: 2,
    });
    expect(server.config.budget.maxSteps).toBe(30);
  });

  it('no_direct_answer makes the agent search before answering, even a trivial question', async () => {
    server = await startTestServer({
      steps: [
        { ...scriptedStep.search(['1+1']), expect: { promptExcludes: '"answer"' } },
        scriptedStep.finalAnswer('2'),
      ],
    });
    await server.client.chat.completions.create({
      model: 'deepsearch',
      messages: [{ role: 'user', content: 'What is 1+1?' }],
      no_direct_answer: true,
      max_steps: 2,
    } as never);
    server.llm.assertConsumed();
    expect(server.search.calls.map((call) => call.query)).toEqual(['1+1']);
  });

  it('response_format json_schema: the answer comes back as JSON matching the schema', async () => {
    server = await startTestServer({
      steps: [
        scriptedStep.answer('Paris is the capital of France.'),
        ...scriptedStep.memoryAnswerJudged(),
        {
          label: 'structured',
          expect: { schemaName: 'capital', promptIncludes: 'Paris is the capital of France.' },
          object: { city: 'Paris', country: 'France' },
        },
      ],
    });
    const completion = await server.client.chat.completions.create({
      model: 'deepsearch',
      messages: [{ role: 'user', content: 'What is the capital of France?' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'capital',
          schema: {
            type: 'object',
            properties: { city: { type: 'string' }, country: { type: 'string' } },
            required: ['city', 'country'],
            additionalProperties: false,
          },
        },
      },
    });
    server.llm.assertConsumed();
    expect(JSON.parse(completion.choices[0]!.message.content!)).toEqual({ city: 'Paris', country: 'France' });
    const usage = completion.usage!;
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    // The answer, its two judges (criteria, definitive) and the structuring call.
    expect(server.llm.calls).toHaveLength(4);
  });

  it('search_provider switches this run to another registered provider', async () => {
    searxng = await startFakeSearxng({
      results: {
        'Green Book director': [
          {
            url: 'https://example.org/green-book',
            title: 'Green Book',
            content: 'Directed by Peter Farrelly.',
          },
        ],
      },
    });
    server = await startTestServer({
      config: { search: { searxngUrl: searxng.url } },
      steps: [scriptedStep.search(['Green Book director']), scriptedStep.finalAnswer('Peter Farrelly.')],
    });
    await server.client.chat.completions.create({
      model: 'deepsearch',
      messages: [{ role: 'user', content: 'Who directed Green Book?' }],
      search_provider: 'searxng',
      max_steps: 2,
    } as never);
    server.llm.assertConsumed();
    expect(searxng.requests.map((request) => request.query.q)).toEqual(['Green Book director']);
    expect(server.search.calls).toEqual([]);
  });
});

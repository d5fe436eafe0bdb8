import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateObject, generateText, Output, streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { ScriptedStep } from '../../src/testing/scripted-llm.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { citedRun, startCitedServer } from '../helpers/server-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server-harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const compatible = () =>
  createOpenAICompatible({ name: 'deepsearch', baseURL: `${server!.url}/v1`, apiKey: 'unused' });
const openai = () => createOpenAI({ baseURL: `${server!.url}/v1`, apiKey: 'unused' });

/**
 * The deep search answers (from memory, so judged), then one structuring call turns the answer
 * into the caller's JSON.
 */
const capitalRun = (): ScriptedStep[] => [
  scriptedStep.answer('Paris is the capital of France.'),
  ...scriptedStep.memoryAnswerJudged(),
  {
    label: 'structured',
    expect: { promptIncludes: 'Paris is the capital of France.' },
    object: { city: 'Paris', country: 'France' },
  },
];
const capitalSchema = z.object({ city: z.string(), country: z.string() });
const capitalQuestion = 'What is the capital of France? Reply in JSON with city and country.';

const sourceUrls = (sources: ReadonlyArray<{ sourceType: string; url?: string }>) =>
  sources.map((source) => (source.sourceType === 'url' ? source.url : undefined));

describe('the AI SDK with @ai-sdk/openai-compatible', () => {
  it('generateText: the answer and usage', async () => {
    server = await startCitedServer();
    const result = await generateText({ model: compatible()('deepsearch'), prompt: citedRun.question });
    server.llm.assertConsumed();
    expect(result.text).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('streamText: progress as reasoning, then the answer text, usage at the end', async () => {
    server = await startCitedServer();
    const result = streamText({
      model: compatible()('deepsearch'),
      prompt: citedRun.question,
      includeRawChunks: false,
    });
    let text = '';
    let reasoning = '';
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      if (part.type === 'reasoning-delta') reasoning += part.text;
    }
    server.llm.assertConsumed();
    expect(text).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(reasoning).toContain('Find when Parasite premiered.');
    expect((await result.usage).inputTokens).toBeGreaterThan(0);
  });

  it('generateObject (its default: response_format json_object) gets JSON the schema accepts', async () => {
    server = await startTestServer({ steps: capitalRun() });
    const result = await generateObject({
      model: compatible()('deepsearch'),
      schema: capitalSchema,
      prompt: capitalQuestion,
    });
    server.llm.assertConsumed();
    expect(result.object).toEqual({ city: 'Paris', country: 'France' });
  });

  it('structured output with supportsStructuredOutputs sends json_schema and gets that object', async () => {
    server = await startTestServer({ steps: capitalRun() });
    const provider = createOpenAICompatible({
      name: 'deepsearch',
      baseURL: `${server.url}/v1`,
      supportsStructuredOutputs: true,
    });
    const result = await generateText({
      model: provider('deepsearch'),
      output: Output.object({ schema: capitalSchema }),
      prompt: capitalQuestion,
    });
    server.llm.assertConsumed();
    expect(result.output).toEqual({ city: 'Paris', country: 'France' });
  });
});

describe('the AI SDK with @ai-sdk/openai', () => {
  it('openai(...) (the Responses API by default): text, url sources, usage', async () => {
    server = await startCitedServer();
    const result = await generateText({ model: openai()('deepsearch'), prompt: citedRun.question });
    server.llm.assertConsumed();
    expect(result.text).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(sourceUrls(result.sources)).toEqual([citedRun.oscarsUrl, citedRun.parasiteUrl]);
    expect(result.reasoningText).toContain('Find when Parasite premiered.');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('openai.responses streaming: reasoning deltas, text deltas, url sources, finish with usage', async () => {
    server = await startCitedServer();
    const result = streamText({ model: openai().responses('deepsearch'), prompt: citedRun.question });
    let text = '';
    let reasoning = '';
    const sources: Array<{ sourceType: string; url?: string }> = [];
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      if (part.type === 'reasoning-delta') reasoning += part.text;
      if (part.type === 'source') sources.push(part);
      if (part.type === 'error') throw part.error;
    }
    server.llm.assertConsumed();
    expect(text).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(reasoning).toContain('→ visit');
    expect(sourceUrls(sources)).toEqual([citedRun.oscarsUrl, citedRun.parasiteUrl]);
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).totalTokens).toBeGreaterThan(0);
  });

  it('openai.chat: generateText and streamText over chat completions, with url sources', async () => {
    server = await startCitedServer();
    const generated = await generateText({ model: openai().chat('deepsearch'), prompt: citedRun.question });
    expect(generated.text).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(sourceUrls(generated.sources)).toEqual([citedRun.oscarsUrl, citedRun.parasiteUrl]);
    server.llm.push(...citedRun.steps());
    const streamed = streamText({ model: openai().chat('deepsearch'), prompt: citedRun.question });
    expect(await streamed.text).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(sourceUrls(await streamed.sources)).toEqual([citedRun.oscarsUrl, citedRun.parasiteUrl]);
    server.llm.assertConsumed();
  });

  it('structured output over the Responses API (text.format json_schema)', async () => {
    server = await startTestServer({ steps: capitalRun() });
    const result = await generateText({
      model: openai()('deepsearch'),
      output: Output.object({ schema: capitalSchema }),
      prompt: capitalQuestion,
    });
    server.llm.assertConsumed();
    expect(result.output).toEqual({ city: 'Paris', country: 'France' });
  });
});

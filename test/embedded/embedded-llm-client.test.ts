import { afterAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { actionNames, createActionSchema } from '../../src/agent/actions/action-registry.js';
import { liftStepReply } from '../../src/agent/actions/lift-step-reply.js';
import { answerTextPaths } from '../../src/agent/answer-draft.js';
import { isAbortError } from '../../src/core/errors/index.js';
import { closeEmbeddedEngines, getEmbeddedEngine } from '../../src/embedded-model/embedded-engine.js';
import { createLlmClient } from '../../src/providers/llm/create-llm-client.js';
import type { LlmCallRecord } from '../../src/providers/spec/llm-client.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { embeddedRuntimeAvailable, tinyModelFile } from '../helpers/embedded-runtime.js';

const available = await embeddedRuntimeAvailable();
const limits = { maxQueries: 3, maxUrls: 2, maxGapQuestions: 5, maxReferences: 10 };
const system = `You are a research agent. ${'Follow the rules below exactly. '.repeat(20)}`;
// One thread: ggml's spinning worker threads slow to a crawl on a loaded 2-core machine.
const settings = { threads: 1, gpu: 'cpu' as const };

afterAll(() => closeEmbeddedEngines());

describe.skipIf(!available)('the embedded model through node-llama-cpp (tiny random GGUF)', () => {
  const model = tinyModelFile();
  const config = createTestConfig({
    llm: { provider: 'local-embedded', model, baseURL: undefined, embedded: settings, contextTokens: 4096 },
  });

  it('answers an agent step under the grammar of our step schema, validated, with usage counted', async () => {
    const client = createLlmClient({ config });
    const calls: LlmCallRecord[] = [];
    const deltas: string[] = [];
    const result = await client.generateObject({
      role: 'agent',
      system,
      prompt: '<question>\nWho directed Parasite?\n</question>',
      schema: createActionSchema([...actionNames], limits),
      schemaName: 'agent_action',
      repair: liftStepReply,
      fieldsInPrompt: true,
      maxOutputTokens: 120,
      streamText: { ...answerTextPaths, onDelta: (delta) => deltas.push(delta) },
      onCall: (record) => calls.push(record),
    });
    // The tiny model prefers "s" wherever the grammar lets it choose: a search step.
    expect(result.object).toMatchObject({ action: 'search', search: { queries: ['s'] } });
    expect(result.parseFailures).toBe(0);
    expect(result.usageEstimated).toBe(false);
    expect(result.usage.promptTokens).toBeGreaterThan(system.length / 2);
    expect(result.usage.completionTokens).toBeGreaterThan(10);
    expect(calls).toEqual([
      expect.objectContaining({ role: 'agent', outcome: 'ok', estimated: false, model }),
    ]);
    expect(client.describe('agent')).toMatchObject({ provider: 'local-embedded', model });
  });

  it('reports the window it fitted, in the prompt budget’s tokens, as chosen by the provider', async () => {
    const client = createLlmClient({ config });
    const window = await client.contextWindow('agent');
    const { info } = await getEmbeddedEngine({
      modelPath: model,
      settings: { ...settings },
      maxContextTokens: 4096,
    });
    // A byte-level tokenizer: about four real tokens for each estimated one.
    expect(info.estimatedPerRealToken).toBeLessThan(0.5);
    expect(window).toEqual({
      tokens: Math.floor(info.contextTokens * info.estimatedPerRealToken),
      source: `the embedded model's context of ${info.contextTokens} tokens`,
      chosenByProvider: true,
    });
  });

  it('keeps the unchanged system prompt in the KV cache from one step to the next', async () => {
    const engine = await getEmbeddedEngine({
      modelPath: model,
      settings: { ...settings },
      maxContextTokens: 4096,
    });
    const ask = (question: string) =>
      engine.generate({
        lane: 'loop',
        messages: [
          { type: 'system', text: system },
          { type: 'user', text: question },
        ],
        grammar: { type: 'object', properties: { answer: { type: 'string' } } },
        maxTokens: 20,
      });
    await engine.generate({ lane: 'loop', messages: [{ type: 'user', text: 'unrelated' }], maxTokens: 4 });
    const first = await ask('First question?');
    const second = await ask('A second, different question?');
    const systemTokens = engine.countTokens(system);
    expect(first.cachedPromptTokens).toBeLessThan(systemTokens);
    expect(second.cachedPromptTokens).toBeGreaterThanOrEqual(systemTokens);
    expect(second.promptTokens).toBeGreaterThan(second.cachedPromptTokens);
  });

  it('queues concurrent calls on one model and stops a cancelled one', async () => {
    const engine = await getEmbeddedEngine({
      modelPath: model,
      settings: { ...settings },
      maxContextTokens: 4096,
    });
    const controller = new AbortController();
    const long = engine.generate({
      lane: 'helpers',
      messages: [{ type: 'user', text: 'Write at length.' }],
      // A string of at least 1500 characters: only the abort can end it early.
      grammar: { type: 'object', properties: { text: { type: 'string', minLength: 1500 } } },
      maxTokens: 4000,
      signal: controller.signal,
      onTextChunk: () => {
        if (!controller.signal.aborted) setTimeout(() => controller.abort(new Error('stop')), 50);
      },
    });
    const queued = engine.generate({
      lane: 'helpers',
      messages: [{ type: 'user', text: 'Short.' }],
      grammar: { type: 'object', properties: { ok: { type: 'boolean' } } },
      maxTokens: 30,
    });
    const started = performance.now();
    const error = await long.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeDefined();
    expect(isAbortError(error) || (error as Error).message === 'stop').toBe(true);
    expect(performance.now() - started).toBeLessThan(15_000);
    const after = await queued;
    expect(after.queuedMs).toBeGreaterThan(0);
    expect(JSON.parse(after.text)).toEqual({ ok: expect.any(Boolean) });
  });
});

describe.skipIf(!available)('the grammars of the agent’s schemas compile in llama.cpp', () => {
  it('every step schema, the judges, and every research, knowledge-analysis and eval schema', async () => {
    const { loadLlamaRuntime } = await import('../../src/embedded-model/load-llama-runtime.js');
    const { toGrammarSchema } = await import('../../src/structured-output/to-grammar-schema.js');
    const { toJsonSchema } = await import('../../src/structured-output/to-json-schema.js');
    const { toWireSchema } = await import('../../src/structured-output/wire-schema.js');
    const { finalAnswerSchema } = await import('../../src/agent/actions/final-answer-schema.js');
    const { rewriteSchema } = await import('../../src/agent/steps/plan-queries.js');
    const { criteriaChoiceSchema, failureAnalysisSchema } = await import(
      '../../src/agent/evaluation/criteria.js'
    );
    const { judgeSchemas } = await import('../../src/agent/evaluation/judge-schemas.js');
    const probes = await import('../../src/research/plan/probe-data-points.js');
    const factCheck = await import('../../src/research/write/fact-check-prompts.js');
    const review = await import('../../src/research/write/final-review.js');
    const analysis = await import('../../src/knowledge/analysis/analyze-chunk-prompt.js');
    const research = [
      probes.attributesSchema,
      probes.directSchema,
      probes.overviewSchema,
      probes.verificationSchema,
      factCheck.claimsSchema,
      factCheck.revisionsSchema,
      factCheck.verdictsSchema,
      review.reviewSchema,
      review.sectionRevisionSchema,
      analysis.chunkAnalysisSchema,
      analysis.documentSummarySchema,
      (await import('../../src/research/write/coherence-pass.js')).coherenceSchema,
      (await import('../../src/research/write/find-contradictions.js')).contradictionsSchema,
      (await import('../../src/research/write/follow-ups.js')).followUpsSchema,
      (await import('../../src/research/gather/librarian-check.js')).librarianSchema,
      (await import('../../src/research/gather/next-hop-queries.js')).nextHopSchema,
      (await import('../../src/research/plan/plan-research.js')).planSchema,
      (await import('../../src/research/write/write-section.js')).sectionSchema,
      (await import('../../src/eval/judge/grade-answer.js')).gradeSchema,
    ];
    const llama = await (await loadLlamaRuntime()).getLlama({
      gpu: false,
      build: 'never',
      logLevel: 'error',
    });
    const schemas = [
      createActionSchema([...actionNames], limits),
      createActionSchema(['search', 'reflect', 'answer'], limits),
      createActionSchema(['answer'], limits),
      finalAnswerSchema,
      rewriteSchema,
      criteriaChoiceSchema,
      failureAnalysisSchema,
      ...Object.values(judgeSchemas),
      ...research,
    ];
    for (const [index, schema] of schemas.entries()) {
      const grammar = toGrammarSchema(toWireSchema(toJsonSchema(schema as z.ZodType)));
      await expect(llama.createGrammarForJsonSchema(grammar), `schema ${index}`).resolves.toBeDefined();
    }
  });
});

import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  AbortedError,
  AuthenticationError,
  ProviderError,
  StructuredOutputError,
} from '../../core/errors/index.js';
import { createScriptedLlm, type ScriptedStep } from '../../testing/scripted-llm.js';
import { createTestConfig } from '../../testing/test-config.js';
import type { LlmCallRecord } from '../spec/llm-client.js';
import { createLlmClient } from './create-llm-client.js';

const schema = z.object({
  action: z.enum(['search', 'answer']).describe('what to do next'),
  queries: z.array(z.string()).min(1),
});
const request = {
  role: 'agent' as const,
  system: 'You are a test.',
  prompt: 'Find it.',
  schema,
  schemaName: 'agent_action',
};

function apiError(
  statusCode: number,
  body = '{"error":{"message":"nope"}}',
  headers: Record<string, string> = {},
) {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'http://127.0.0.1:9/v1/chat/completions?key=secret',
    requestBodyValues: {},
    statusCode,
    responseBody: body,
    responseHeaders: headers,
    isRetryable: statusCode >= 500 || statusCode === 429,
  });
}

function clientWith(steps: ScriptedStep[], llm: Record<string, unknown> = {}) {
  const model = createScriptedLlm(steps);
  const config = createTestConfig({ llm: { maxRetries: 2, ...llm } });
  return { model, client: createLlmClient({ config, createModel: () => model }) };
}

describe('createLlmClient.generateObject', () => {
  it('returns a validated object with usage, sending the JSON schema as the response format', async () => {
    const { model, client } = clientWith([
      { object: { action: 'search', queries: ['q'] }, usage: { input: 120, output: 8 } },
    ]);
    const result = await client.generateObject(request);
    expect(result.object).toEqual({ action: 'search', queries: ['q'] });
    expect(result.usage).toEqual({ promptTokens: 120, completionTokens: 8, totalTokens: 128 });
    expect(result.parseFailures).toBe(0);
    expect(model.calls[0]!.schemaName).toBe('agent_action');
    expect(model.calls[0]!.responseFormat).toMatchObject({ type: 'json', schema: { type: 'object' } });
    expect(model.calls[0]!.temperature).toBe(0.6);
    model.assertConsumed();
  });

  it('repairs a think-tagged, fenced, trailing-comma reply without a re-ask', async () => {
    const { model, client } = clientWith([
      { text: '<think>hmm</think>\n```json\n{"action": "Search", "queries": ["a",],}\n```' },
    ]);
    const result = await client.generateObject(request);
    expect(result.object).toEqual({ action: 'search', queries: ['a'] });
    // Two fixes: the near-JSON text (think tag, fence, commas) and the enum's case.
    expect(result.repairs).toBe(2);
    expect(result.reasoning).toContain('hmm');
    model.assertConsumed();
  });

  it('re-asks once with the validation error, then succeeds, counting the parse failure', async () => {
    const { model, client } = clientWith([
      { object: { action: 'search', queries: [] }, usage: { input: 100, output: 5 } },
      {
        object: { action: 'search', queries: ['fixed'] },
        usage: { input: 130, output: 6 },
        expect: { promptIncludes: ['could not be used', 'queries'] },
      },
    ]);
    const result = await client.generateObject(request);
    expect(result.object.queries).toEqual(['fixed']);
    expect(result.parseFailures).toBe(1);
    expect(result.usage.totalTokens).toBe(241);
    model.assertConsumed();
  });

  it('reports every request to onCall: a retried error, a re-asked reply and the one that validated', async () => {
    const { model, client } = clientWith([
      { error: apiError(503) },
      { object: { action: 'search', queries: [] }, usage: { input: 100, output: 5 } },
      { text: '```json\n{"action": "search", "queries": ["q"]}\n```', usage: { input: 130, output: 6 } },
    ]);
    const records: LlmCallRecord[] = [];
    await client.generateObject({ ...request, onCall: (record) => records.push(record) });
    expect(records.map((record) => record.outcome)).toEqual(['error', 'parse-failure', 'ok']);
    expect(records.map((record) => record.promptTokens)).toEqual([0, 100, 130]);
    expect(records.map((record) => record.completionTokens)).toEqual([0, 5, 6]);
    expect(records.map((record) => record.repairs)).toEqual([0, 0, 1]);
    expect(records.every((record) => record.role === 'agent' && record.model === 'scripted-model')).toBe(
      true,
    );
    expect(records.every((record) => record.ms >= 0 && record.estimated === false)).toBe(true);
    expect(model.calls).toHaveLength(3);
  });

  it("applies the request's repair hook and key synonyms before validation, as repairs", async () => {
    const step = z.object({
      action: z.enum(['search']),
      search: z.object({ queries: z.array(z.string()).min(1) }),
    });
    const { model, client } = clientWith([{ object: { action: 'search', words: ['a'] } }]);
    const result = await client.generateObject({
      ...request,
      schema: step,
      keyAliases: { words: 'queries' },
      // The payload at the top level, lifted into its action's object.
      repair: (value) => {
        const { action, ...payload } = value as Record<string, unknown>;
        return typeof action === 'string' && !(action in payload) ? { action, [action]: payload } : value;
      },
    });
    expect(result.object).toEqual({ action: 'search', search: { queries: ['a'] } });
    expect(result.repairs).toBe(2);
    expect(result.parseFailures).toBe(0);
    model.assertConsumed();
  });

  it('throws StructuredOutputError when the re-ask is invalid too; never returns an unvalidated object', async () => {
    const { client } = clientWith([{ text: 'no json here' }, { text: '{"action": "dance"}' }]);
    const error = await client.generateObject(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputError).validationMessage).toMatch(/action/);
  });

  it('retries 429 and 5xx, honouring Retry-After', async () => {
    const { model, client } = clientWith([
      { error: apiError(429, '{"error":{"message":"slow down"}}', { 'retry-after': '0' }) },
      { error: apiError(503) },
      { object: { action: 'answer', queries: ['x'] } },
    ]);
    const retries: number[] = [];
    const result = await client.generateObject({ ...request, onRetry: (info) => retries.push(info.attempt) });
    expect(result.object.action).toBe('answer');
    expect(retries).toEqual([1, 2]);
    model.assertConsumed();
  });

  it('stops at once on 401 with an AuthenticationError naming the variable, and never retries', async () => {
    const { model, client } = clientWith([
      { error: apiError(401) },
      { object: { action: 'answer', queries: ['x'] } },
    ]);
    const error = await client.generateObject(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('DEEPSEARCH_LLM_API_KEY');
    expect((error as Error).message).not.toContain('secret');
    expect(model.calls).toHaveLength(1);
  });

  it('gives up after maxRetries on persistent 500s with a retryable ProviderError', async () => {
    const { model, client } = clientWith([
      { error: apiError(500) },
      { error: apiError(500) },
      { error: apiError(500) },
    ]);
    const error = await client.generateObject(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).statusCode).toBe(500);
    expect(model.calls).toHaveLength(3);
  });

  it('turns a slow call into a timeout error', async () => {
    const { client } = clientWith([{ delayMs: 5000, object: {} }], { timeoutSeconds: 0.2, maxRetries: 0 });
    const error = await client.generateObject(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).code).toBe('provider_timeout');
  });

  it('stops within moments when the caller aborts', async () => {
    const { client } = clientWith([{ delayMs: 10_000, object: {} }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await client
      .generateObject({ ...request, signal: controller.signal })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('in auto mode, falls back to prompt mode for good when the server rejects JSON schema', async () => {
    const { model, client } = clientWith([
      { error: apiError(400, '{"error":{"message":"response_format json_schema is not supported"}}') },
      { object: { action: 'search', queries: ['a'] }, expect: { promptIncludes: '"queries"' } },
      { object: { action: 'search', queries: ['b'] } },
    ]);
    await client.generateObject(request);
    expect(model.calls[1]!.responseFormat).toBeUndefined();
    expect(model.calls[1]!.system).toContain('no prose, no markdown fences. Its fields:');
    expect(model.calls[1]!.system).toMatch(/^- queries \(/m);
    await client.generateObject(request);
    expect(model.calls[2]!.responseFormat).toBeUndefined();
    expect(client.describe('agent').structuredOutput).toBe('prompt');
    model.assertConsumed();
  });

  it('estimates usage when the server reports none', async () => {
    const { client } = clientWith([{ object: { action: 'search', queries: ['q'] }, usage: 'none' }]);
    const result = await client.generateObject(request);
    expect(result.usageEstimated).toBe(true);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
  });
});

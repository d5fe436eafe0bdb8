import { APICallError, type LanguageModelV3, type LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createTestConfig } from '../../testing/test-config.js';
import type { LlmCallRecord, RetryNotice } from '../spec/llm-client.js';
import { createLlmClient } from './create-llm-client.js';

const schema = z.object({ answer: z.object({ text: z.string().min(1) }) });
const reply = JSON.stringify({ answer: { text: 'Cannes, in 2019.' } });
const usage = {
  inputTokens: { total: 40, noCache: 40, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 9, text: 9, reasoning: undefined },
};

/** A model whose streams are given part by part: the first can fail half-way, as a broken body does. */
function streamingModel(streams: LanguageModelV3StreamPart[][]): LanguageModelV3 & { opened: number } {
  const model = {
    specificationVersion: 'v3' as const,
    provider: 'test',
    modelId: 'test-model',
    supportedUrls: {},
    opened: 0,
    doGenerate: () => Promise.reject(new Error('not used')),
    doStream: async () => {
      const parts = streams[model.opened++] ?? [];
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      return { stream };
    },
  };
  return model;
}

const serverError = new APICallError({
  message: 'upstream reset',
  url: 'http://127.0.0.1:9/v1/chat/completions',
  requestBodyValues: {},
  statusCode: 503,
  isRetryable: true,
});

describe('the retry middleware', () => {
  it('starts a stream that fails half-way over, voiding the text streamed so far', async () => {
    const model = streamingModel([
      [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: '{"answer":{"text":"Half' },
        { type: 'error', error: serverError },
      ],
      [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: reply },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ],
    ]);
    const client = createLlmClient({
      config: createTestConfig({ llm: { maxRetries: 1 } }),
      createModel: () => model,
    });
    const events: string[] = [];
    const retries: RetryNotice[] = [];
    const calls: LlmCallRecord[] = [];
    const result = await client.generateObject({
      role: 'beast',
      system: 'Answer.',
      prompt: 'Where?',
      schema,
      schemaName: 'final_answer',
      onRetry: (notice) => retries.push(notice),
      onCall: (record) => calls.push(record),
      streamText: {
        path: ['answer', 'text'],
        onDelta: (delta) => events.push(delta),
        onReset: () => events.push('reset'),
      },
    });
    expect(model.opened).toBe(2);
    expect(result.object).toEqual({ answer: { text: 'Cannes, in 2019.' } });
    expect(result.usage).toEqual({ promptTokens: 40, completionTokens: 9, totalTokens: 49 });
    expect(events).toEqual(['Half', 'reset', 'Cannes, in 2019.']);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.reason).toContain('HTTP 503');
    expect(calls.map((call) => call.outcome)).toEqual(['error', 'ok']);
    expect(calls[0]!.error).toContain('HTTP 503');
  });
});

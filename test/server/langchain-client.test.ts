import { ChatOpenAI } from '@langchain/openai';
import { afterEach, describe, expect, it } from 'vitest';
import { citedRun, startCitedServer } from '../helpers/server-fixtures.js';
import type { TestServer } from '../helpers/server-harness.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chatModel = (extra: Record<string, unknown> = {}) =>
  new ChatOpenAI({
    model: 'deepsearch',
    apiKey: 'unused',
    configuration: { baseURL: `${server!.url}/v1` },
    maxRetries: 0,
    ...extra,
  });

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : (content as Array<{ type: string; text?: string }>)
        .map((part) => (part.type === 'text' ? (part.text ?? '') : ''))
        .join('');

describe('LangChain ChatOpenAI', () => {
  it('invoke over chat completions: the answer and token usage', async () => {
    server = await startCitedServer();
    const message = await chatModel().invoke(citedRun.question);
    server.llm.assertConsumed();
    expect(textOf(message.content)).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(message.usage_metadata!.input_tokens).toBeGreaterThan(0);
  });

  it('stream over chat completions: the answer arrives in chunks, usage counted once', async () => {
    server = await startCitedServer();
    let text = '';
    let chunks = 0;
    let total = 0;
    for await (const chunk of await chatModel({ streamUsage: true }).stream(citedRun.question)) {
      text += textOf(chunk.content);
      chunks++;
      total += chunk.usage_metadata?.total_tokens ?? 0;
    }
    server.llm.assertConsumed();
    expect(text).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(chunks).toBeGreaterThan(2);
    const logged = server.logs.at(-1)!;
    expect(total).toBe(logged.tokens);
  });

  it('useResponsesApi: invoke and stream over /v1/responses', async () => {
    server = await startCitedServer();
    const model = chatModel({ useResponsesApi: true });
    const message = await model.invoke(citedRun.question);
    expect(textOf(message.content)).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    server.llm.push(...citedRun.steps());
    let text = '';
    for await (const chunk of await model.stream(citedRun.question)) text += textOf(chunk.content);
    server.llm.assertConsumed();
    expect(text).toMatch(/^Peter Farrelly directed Green Book\[\^1\]/);
    expect(server.logs.map((line) => line.path)).toEqual(['/v1/responses', '/v1/responses']);
  });
});

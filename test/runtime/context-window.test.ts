import { afterEach, describe, expect, it } from 'vitest';
import { outputReserve } from '../../src/agent/context/build-agent-prompt.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createTestConfig } from '../../src/testing/test-config.js';

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const finalAnswer = {
  content: JSON.stringify({ think: 'done', answer: { text: 'An answer.', references: [] } }),
};

async function askWith(options: { maxModelLen?: number; contextTokens?: number }) {
  server = await startFakeOpenAi({
    routes: { final_answer: [finalAnswer, finalAnswer] },
    ...(options.maxModelLen ? { modelFields: { max_model_len: options.maxModelLen } } : {}),
  });
  const config = createTestConfig({
    llm: {
      baseURL: `${server.url}/v1`,
      model: 'fake-model',
      ...(options.contextTokens ? { contextTokens: options.contextTokens } : {}),
    },
    budget: { maxSteps: 1 },
  });
  const runtime = createRuntime({ config, search: createFakeSearch({}), reader: createFakeReader({}) });
  const events: AgentEvent[] = [];
  await runtime.run({ mode: 'search', question: 'What is it?', onEvent: (event) => events.push(event) });
  await runtime.run({ mode: 'search', question: 'What is it again?' });
  runtime.close();
  server.assertConsumed();
  const warnings = events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
  const chats = server.requests.filter((request) => request.path === '/v1/chat/completions');
  const probes = server.requests.filter((request) => request.path === '/v1/models');
  return { warnings, chats, probes };
}

describe('the context fits the server window', () => {
  it("uses vLLM's smaller max_model_len with a warning, sends a max_tokens that fits, and asks once", async () => {
    const { warnings, chats, probes } = await askWith({ maxModelLen: 8192 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('context window of 8192 tokens (/v1/models max_model_len)');
    expect(warnings[0]).toContain('small-context profile');
    // The final answer (beast role) may write no more than the part of the window kept free.
    expect(chats[0]!.json?.max_tokens).toBe(outputReserve(8192));
    expect(probes).toHaveLength(1);
  });

  it('says nothing when the server window is larger, and still sends a max_tokens per role', async () => {
    const { warnings, chats } = await askWith({ maxModelLen: 131_072 });
    expect(warnings).toEqual([]);
    expect(chats[0]!.json?.max_tokens).toBe(4096);
  });

  it('keeps the configured budget when the server does not say', async () => {
    const { warnings, chats } = await askWith({ contextTokens: 8192 });
    expect(warnings).toEqual([]);
    expect(chats[0]!.json?.max_tokens).toBe(outputReserve(8192));
  });
});

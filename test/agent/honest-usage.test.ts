import { afterEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import { createLlmClient } from '../../src/providers/llm/create-llm-client.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { parasiteHits } from '../helpers/agent-harness.js';

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const usage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
});

describe('usage counts every LLM request', () => {
  it('matches what the server saw, with a retried 500 and a re-asked reply', async () => {
    server = await startFakeOpenAi({
      routes: {
        agent_action: [
          { status: 500 },
          // Invalid: an empty query list is re-asked.
          {
            content: JSON.stringify({ think: 't', action: 'search', search: { queries: [] } }),
            usage: usage(100, 7),
          },
          {
            content: JSON.stringify({
              think: 't',
              action: 'search',
              search: { queries: ['parasite cannes'] },
            }),
            usage: usage(130, 9),
          },
        ],
        final_answer: [
          {
            content: JSON.stringify({
              think: 'done',
              answer: { text: 'It premiered at Cannes.', references: [] },
            }),
            usage: usage(400, 20),
          },
        ],
      },
    });
    const config = createTestConfig({
      llm: { baseURL: `${server.url}/v1`, model: 'fake-model', maxRetries: 2 },
      budget: { maxSteps: 2 },
    });
    const events: AgentEvent[] = [];
    const result = await runAgent({
      question: 'Where did Parasite premiere?',
      config,
      llm: createLlmClient({ config }),
      search: createFakeSearch({ 'parasite cannes': parasiteHits }),
      reader: createFakeReader({}),
      onEvent: (event) => events.push(event),
    });
    server.assertConsumed();
    const chatRequests = server.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(chatRequests).toHaveLength(4);
    expect(result.usage.llmCalls).toBe(chatRequests.length);
    expect(result.usage.parseFailures).toBe(1);
    expect(result.usage.failedCalls).toBe(1);
    // Tokens of every reply the server billed, the rejected one included; the 500 billed nothing.
    expect(result.usage.promptTokens).toBe(100 + 130 + 400);
    expect(result.usage.completionTokens).toBe(7 + 9 + 20);
    expect(result.usage.byRole.agent?.calls).toBe(3);
    expect(events.some((event) => event.type === 'retry')).toBe(true);
  });
});

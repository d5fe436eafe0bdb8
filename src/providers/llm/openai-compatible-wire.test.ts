import { describe, expect, it } from 'vitest';
import {
  describeLlmWireContract,
  rejectionOf,
  trackServers,
  validObject,
  wireConfig,
  wireKey,
  wireRequest,
} from '../../../test/helpers/llm-wire-contract.js';
import { ProviderError } from '../../core/errors/index.js';
import { startFakeOpenAi } from '../../testing/fake-openai-server.js';
import { createLlmClient } from './create-llm-client.js';

const spec = { provider: 'openai-compatible', model: 'qwen2.5:7b' } as const;
const ok = { content: JSON.stringify(validObject) };

describe('OpenAI-compatible servers over HTTP (createOpenAICompatible)', () => {
  const track = trackServers();
  const serve = async (options: Parameters<typeof startFakeOpenAi>[0]) => {
    const server = track(await startFakeOpenAi(options));
    return { server, baseURL: `${server.url}/v1` };
  };

  it('sends the key, model, prompts, JSON schema (not strict) and temperature', async () => {
    const { server, baseURL } = await serve({ apiKey: wireKey, replies: [ok] });
    await createLlmClient({ config: wireConfig(spec, baseURL) }).generateObject(wireRequest);

    const sent = server.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${wireKey}`);
    expect(sent.json).toMatchObject({
      model: 'qwen2.5:7b',
      temperature: 0.6,
      response_format: { type: 'json_schema', json_schema: { name: 'agent_action', strict: false } },
    });
    expect(sent.json!.response_format!.json_schema!.schema).toMatchObject({
      type: 'object',
      required: ['action', 'queries'],
    });
    expect(sent.json!.messages!.map((message) => message.role)).toEqual(['system', 'user']);
    expect(sent.system).toContain(wireRequest.system);
    expect(sent.prompt).toBe(wireRequest.prompt);
    server.assertConsumed();
  });

  it('sends no Authorization header when no key is configured (local servers)', async () => {
    const { server, baseURL } = await serve({ replies: [ok] });
    await createLlmClient({ config: wireConfig(spec, baseURL, { apiKey: undefined }) }).generateObject(
      wireRequest,
    );
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    server.assertConsumed();
  });

  it('reads usage from prompt_tokens/completion_tokens and reasoning from reasoning_content', async () => {
    const { server, baseURL } = await serve({
      replies: [
        {
          content: JSON.stringify(validObject),
          reasoning: 'Paris is the capital; search to cite it.',
          usage: { prompt_tokens: 150, completion_tokens: 40, total_tokens: 190 },
        },
      ],
    });
    const result = await createLlmClient({ config: wireConfig(spec, baseURL) }).generateObject(wireRequest);
    expect(result.object).toEqual(validObject);
    expect(result.usage).toEqual({ promptTokens: 150, completionTokens: 40, totalTokens: 190 });
    expect(result.usageEstimated).toBe(false);
    expect(result.reasoning).toBe('Paris is the capital; search to cite it.');
    server.assertConsumed();
  });

  it('estimates usage, and says so, when the server reports none', async () => {
    const { server, baseURL } = await serve({ replies: [{ ...ok, usage: 'none' }] });
    const result = await createLlmClient({ config: wireConfig(spec, baseURL) }).generateObject(wireRequest);
    expect(result.usageEstimated).toBe(true);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    expect(result.usage.completionTokens).toBeGreaterThan(0);
    server.assertConsumed();
  });

  // The error bodies of servers that reject response_format: OpenAI-style, older vLLM, LM Studio.
  const unsupportedBodies = {
    'an OpenAI-style error': { error: { message: "Unknown response_format type 'json_schema'", code: 400 } },
    'a top-level message (older vLLM)': {
      object: 'error',
      message: 'response_format json_schema is not supported by this model',
      type: 'BadRequestError',
      code: 400,
    },
    'an error string (LM Studio)': { error: "'response_format.type' must be 'json_schema' or 'text'" },
  };
  for (const [label, body] of Object.entries(unsupportedBodies)) {
    it(`falls back to prompt mode for good after a 400 about response_format (${label})`, async () => {
      const { server, baseURL } = await serve({ replies: [{ status: 400, body }, ok, ok] });
      const client = createLlmClient({ config: wireConfig(spec, baseURL) });
      expect((await client.generateObject(wireRequest)).object).toEqual(validObject);
      expect(client.describe('agent').structuredOutput).toBe('prompt');
      await client.generateObject(wireRequest);

      const [first, second, third] = server.requests;
      expect(first!.json!.response_format).toMatchObject({ type: 'json_schema' });
      expect(second!.json!.response_format).toBeUndefined();
      // Prompt mode shows the fields in words (a field guide), never a minified schema.
      expect(second!.system).toContain('no prose, no markdown fences. Its fields:');
      expect(second!.system).toMatch(/^- action \(/m);
      expect(second!.system).toMatch(/^- queries \(list of/m);
      expect(second!.system).not.toContain('"required"');
      expect(third!.json!.response_format).toBeUndefined();
      server.assertConsumed();
    });
  }

  it("sends no response_format at all with structuredOutput 'prompt'", async () => {
    const { server, baseURL } = await serve({ replies: [ok] });
    const config = wireConfig(spec, baseURL, { structuredOutput: 'prompt' });
    expect((await createLlmClient({ config }).generateObject(wireRequest)).object).toEqual(validObject);
    expect(server.requests[0]!.json!.response_format).toBeUndefined();
    expect(server.requests[0]!.system).toContain('"queries"');
    server.assertConsumed();
  });

  it("does not fall back with structuredOutput 'json-schema': the 400 is reported", async () => {
    const body = { error: { message: 'response_format json_schema is not supported' } };
    const { server, baseURL } = await serve({ replies: [{ status: 400, body }] });
    const config = wireConfig(spec, baseURL, { structuredOutput: 'json-schema' });
    const error = await rejectionOf(createLlmClient({ config }).generateObject(wireRequest));
    expect(error).toMatchObject({ code: 'llm_structured_output_unsupported', statusCode: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it('reports an unknown model (404, as Ollama sends it) with what to check', async () => {
    const body = {
      error: { message: 'model "qwen2.5:7b" not found, try pulling it first', type: 'api_error' },
    };
    const { server, baseURL } = await serve({ replies: [{ status: 404, body }] });
    const error = await rejectionOf(
      createLlmClient({ config: wireConfig(spec, baseURL) }).generateObject(wireRequest),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'llm_model_not_found', statusCode: 404 });
    expect(error.message).toContain('DEEPSEARCH_LLM_MODEL');
    expect(error.message).toContain('try pulling it first');
    expect(server.requests).toHaveLength(1);
  });

  it('generateText: one plain call with the conversation, no response format; usage read; errors mapped', async () => {
    const { server, baseURL } = await serve({
      replies: [
        {
          content: 'Green Book Director',
          usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34 },
        },
        { status: 503, body: { error: { message: 'overloaded', type: 'server_error' } } },
        { status: 503, body: { error: { message: 'overloaded', type: 'server_error' } } },
      ],
    });
    const client = createLlmClient({ config: wireConfig(spec, baseURL, { maxRetries: 1 }) });
    const messages = [
      { role: 'user' as const, content: 'Who directed Green Book?' },
      { role: 'assistant' as const, content: 'Peter Farrelly.' },
      { role: 'user' as const, content: 'Title this chat.' },
    ];
    const result = await client.generateText({ role: 'agent', system: 'Be brief.', messages });
    expect(result).toMatchObject({ text: 'Green Book Director', usageEstimated: false, model: 'qwen2.5:7b' });
    expect(result.usage).toEqual({ promptTokens: 30, completionTokens: 4, totalTokens: 34 });
    const sent = server.requests[0]!.json!;
    expect(sent.response_format).toBeUndefined();
    expect(sent.messages!.map((message) => [message.role, message.content])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'Who directed Green Book?'],
      ['assistant', 'Peter Farrelly.'],
      ['user', 'Title this chat.'],
    ]);
    const retries: number[] = [];
    const error = await rejectionOf(
      client.generateText({ role: 'agent', messages, onRetry: (info) => retries.push(info.attempt) }),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 503, isRetryable: true });
    expect(retries).toEqual([1]);
    server.assertConsumed();
  });

  describeLlmWireContract({
    ...spec,
    start: startFakeOpenAi,
    baseURL: (url) => `${url}/v1`,
    keyVariable: 'DEEPSEARCH_LLM_API_KEY',
    malformedBodies: {
      'not JSON': 'Internal Server Error',
      'message missing': JSON.stringify({ choices: [{ index: 0, finish_reason: 'stop' }] }),
      'no choices': JSON.stringify({ id: 'x', choices: [] }),
    },
  });
});

import { describe, expect, it } from 'vitest';
import {
  describeLlmWireContract,
  trackServers,
  validObject,
  wireConfig,
  wireKey,
  wireRequest,
} from '../../../test/helpers/llm-wire-contract.js';
import { startFakeOpenAi } from '../../testing/fake-openai-server.js';
import { createLlmClient } from './create-llm-client.js';

const spec = { provider: 'openai', model: 'gpt-4.1-mini' } as const;

describe('OpenAI Chat Completions over HTTP (createOpenAI().chat)', () => {
  const track = trackServers();

  it('sends the key, model, prompts, JSON schema and sampling settings the way OpenAI documents', async () => {
    const server = track(
      await startFakeOpenAi({
        apiKey: wireKey,
        replies: [
          { content: JSON.stringify(validObject), usage: { prompt_tokens: 321, completion_tokens: 12 } },
        ],
      }),
    );
    const config = wireConfig(spec, `${server.url}/v1`, { maxOutputTokens: 700 });
    const result = await createLlmClient({ config }).generateObject(wireRequest);

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${wireKey}`);
    expect(sent.headers['content-type']).toContain('application/json');
    expect(sent.json).toMatchObject({
      model: 'gpt-4.1-mini',
      temperature: 0.6, // the agent role's default
      max_tokens: 700,
      response_format: { type: 'json_schema', json_schema: { name: 'agent_action', strict: false } },
    });
    expect(sent.json!.stream).toBeUndefined();
    const messages = sent.json!.messages!;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(messages[0]!.content).toContain(wireRequest.system);
    expect(messages[1]!.content).toBe(wireRequest.prompt);
    const schema = sent.json!.response_format!.json_schema!.schema!;
    expect(schema).toMatchObject({ type: 'object', required: ['action', 'queries'] });
    expect(schema).toHaveProperty('properties.action.enum', ['search', 'answer']);

    expect(result.object).toEqual(validObject);
    expect(result.usage).toEqual({ promptTokens: 321, completionTokens: 12, totalTokens: 333 });
    expect(result.usageEstimated).toBe(false);
    expect(result.model).toBe('gpt-4.1-mini');
    server.assertConsumed();
  });

  it('uses the role temperature the config sets for that role', async () => {
    const server = track(await startFakeOpenAi({ replies: [{ content: JSON.stringify(validObject) }] }));
    const config = wireConfig(spec, `${server.url}/v1`, { roles: { evaluator: { temperature: 0 } } });
    await createLlmClient({ config }).generateObject({ ...wireRequest, role: 'evaluator' });
    expect(server.requests[0]!.json!.temperature).toBe(0);
    server.assertConsumed();
  });

  describeLlmWireContract({
    ...spec,
    start: startFakeOpenAi,
    baseURL: (url) => `${url}/v1`,
    keyVariable: 'OPENAI_API_KEY',
    malformedBodies: {
      'not JSON': '<html><body>502 Bad Gateway</body></html>',
      'choices is not a list': JSON.stringify({ id: 'x', object: 'chat.completion', choices: 'none' }),
      'no choices': JSON.stringify({ id: 'x', object: 'chat.completion', choices: [] }),
    },
  });
});

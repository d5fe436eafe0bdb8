import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { startFakeAnthropic } from '../../../test/helpers/fake-anthropic-server.js';
import {
  describeLlmWireContract,
  trackServers,
  validObject,
  wireConfig,
  wireKey,
  wireRequest,
} from '../../../test/helpers/llm-wire-contract.js';
import { createLlmClient } from './create-llm-client.js';

const spec = { provider: 'anthropic', model: 'claude-haiku-4-5' } as const;

describe('Anthropic Messages API over HTTP (createAnthropic)', () => {
  const track = trackServers();

  it('sends x-api-key, anthropic-version, prompts, temperature and the schema as output_config.format', async () => {
    const server = track(
      await startFakeAnthropic({
        apiKey: wireKey,
        replies: [{ content: JSON.stringify(validObject), usage: { input_tokens: 410, output_tokens: 22 } }],
      }),
    );
    const config = wireConfig(spec, `${server.url}/v1`, { maxOutputTokens: 900 });
    const result = await createLlmClient({ config }).generateObject(wireRequest);

    const sent = server.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe(wireKey);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.json).toMatchObject({ model: 'claude-haiku-4-5', temperature: 0.6, max_tokens: 900 });
    expect(sent.system).toContain(wireRequest.system);
    expect(sent.json!.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: wireRequest.prompt }] },
    ]);
    expect(sent.jsonMode).toBe('output-format');
    expect(sent.json!.output_config!.format).toMatchObject({
      type: 'json_schema',
      schema: { type: 'object', required: ['action', 'queries'] },
    });
    expect(sent.json!.tools).toBeUndefined();

    expect(result.object).toEqual(validObject);
    expect(result.usage).toEqual({ promptTokens: 410, completionTokens: 22, totalTokens: 432 });
    expect(result.usageEstimated).toBe(false);
    server.assertConsumed();
  });

  it('asks through the forced json tool when the schema has an open object, and reads the tool input', async () => {
    const openSchema = wireRequest.schema.and(
      z.object({ notes: z.record(z.string(), z.string()).optional() }),
    );
    const server = track(await startFakeAnthropic({ replies: [{ content: JSON.stringify(validObject) }] }));
    const client = createLlmClient({ config: wireConfig(spec, `${server.url}/v1`) });
    const result = await client.generateObject({ ...wireRequest, schema: openSchema });

    const sent = server.requests[0]!;
    expect(sent.jsonMode).toBe('json-tool');
    expect(sent.json!.output_config).toBeUndefined();
    expect(sent.json!.tools).toEqual([expect.objectContaining({ name: 'json' })]);
    expect(sent.json!.tool_choice).toMatchObject({ type: 'any' });
    expect(result.object).toEqual(validObject);
    server.assertConsumed();
  });

  it('returns thinking blocks as reasoning', async () => {
    const server = track(
      await startFakeAnthropic({
        replies: [
          { content: JSON.stringify(validObject), reasoning: 'The capital question needs one search.' },
        ],
      }),
    );
    const result = await createLlmClient({ config: wireConfig(spec, `${server.url}/v1`) }).generateObject(
      wireRequest,
    );
    expect(result.reasoning).toBe('The capital question needs one search.');
    server.assertConsumed();
  });

  describeLlmWireContract({
    ...spec,
    start: startFakeAnthropic,
    baseURL: (url) => `${url}/v1`,
    keyVariable: 'ANTHROPIC_API_KEY',
    malformedBodies: {
      'not JSON': '<html>upstream connect error</html>',
      'content is not a list': JSON.stringify({ type: 'message', content: 'hi', usage: {} }),
      'usage missing': JSON.stringify({ type: 'message', content: [{ type: 'text', text: '{}' }] }),
    },
  });
});

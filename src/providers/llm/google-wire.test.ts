import { describe, expect, it } from 'vitest';
import { startFakeGoogle } from '../../../test/helpers/fake-google-server.js';
import {
  describeLlmWireContract,
  rejectionOf,
  trackServers,
  validObject,
  wireConfig,
  wireKey,
  wireRequest,
} from '../../../test/helpers/llm-wire-contract.js';
import { AuthenticationError } from '../../core/errors/index.js';
import { createLlmClient } from './create-llm-client.js';

const spec = { provider: 'google', model: 'gemini-2.5-flash' } as const;

describe('Gemini API over HTTP (createGoogleGenerativeAI)', () => {
  const track = trackServers();

  it('sends x-goog-api-key, the model in the path, prompts, temperature and the response schema', async () => {
    const server = track(
      await startFakeGoogle({
        apiKey: wireKey,
        replies: [
          {
            content: JSON.stringify(validObject),
            usage: { promptTokenCount: 230, candidatesTokenCount: 15, thoughtsTokenCount: 5 },
          },
        ],
      }),
    );
    const config = wireConfig(spec, `${server.url}/v1beta`, { maxOutputTokens: 800 });
    const result = await createLlmClient({ config }).generateObject(wireRequest);

    const sent = server.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent.headers['x-goog-api-key']).toBe(wireKey);
    expect(sent.query).toEqual({}); // the key never goes in the URL
    expect(sent.system).toContain(wireRequest.system);
    expect(sent.json!.contents).toEqual([{ role: 'user', parts: [{ text: wireRequest.prompt }] }]);
    expect(sent.json!.generationConfig).toMatchObject({
      temperature: 0.6,
      maxOutputTokens: 800,
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', required: ['action', 'queries'] },
    });
    expect(sent.json!.generationConfig!.responseSchema).toHaveProperty('properties.action.enum', [
      'search',
      'answer',
    ]);

    expect(result.object).toEqual(validObject);
    // Thinking tokens are output the user pays for, so they count as completion tokens.
    expect(result.usage).toEqual({ promptTokens: 230, completionTokens: 20, totalTokens: 250 });
    expect(result.usageEstimated).toBe(false);
    server.assertConsumed();
  });

  it('returns thought parts as reasoning', async () => {
    const server = track(
      await startFakeGoogle({
        replies: [{ content: JSON.stringify(validObject), reasoning: 'One search will do.' }],
      }),
    );
    const result = await createLlmClient({ config: wireConfig(spec, `${server.url}/v1beta`) }).generateObject(
      wireRequest,
    );
    expect(result.object).toEqual(validObject);
    expect(result.reasoning).toBe('One search will do.');
    server.assertConsumed();
  });

  it('treats a 401 UNAUTHENTICATED (proxies, OAuth) as an authentication error too', async () => {
    const server = track(await startFakeGoogle({ replies: [{ status: 401 }] }));
    const client = createLlmClient({ config: wireConfig(spec, `${server.url}/v1beta`) });
    const error = await rejectionOf(client.generateObject(wireRequest));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain('GEMINI_API_KEY');
    expect(server.requests).toHaveLength(1);
  });

  it('does not mistake another 400 for a key problem', async () => {
    const server = track(await startFakeGoogle({ replies: [{ status: 400 }] }));
    const client = createLlmClient({ config: wireConfig(spec, `${server.url}/v1beta`) });
    const error = await rejectionOf(client.generateObject(wireRequest));
    expect(error).not.toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ statusCode: 400, code: 'provider_http_error' });
  });

  // Gemini answers a wrong key with 400 INVALID_ARGUMENT / API_KEY_INVALID, not 401.
  describeLlmWireContract({
    ...spec,
    start: startFakeGoogle,
    baseURL: (url) => `${url}/v1beta`,
    keyVariable: 'GEMINI_API_KEY',
    malformedBodies: {
      'not JSON': 'Service Unavailable',
      'candidates is not a list': JSON.stringify({ candidates: { content: 'x' } }),
    },
  });
});

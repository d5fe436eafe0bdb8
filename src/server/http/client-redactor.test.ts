import { describe, expect, it } from 'vitest';
import { createTestConfig } from '../../testing/test-config.js';
import { createClientRedactor, hiddenAddress } from './client-redactor.js';

describe('createClientRedactor', () => {
  it('hides the services behind the server as URLs and host:port, and the secrets; leaves pages and search', () => {
    const config = createTestConfig({
      llm: { baseURL: 'https://llm.corp.example/v1', model: 'm', apiKey: 'sk-live-0123456789abcdef' },
      search: { provider: 'searxng', searxngUrl: 'http://10.0.0.9:8888' },
      embedding: { provider: 'openai-compatible', baseURL: 'http://10.0.0.7:9000/v1', model: 'e' },
      network: { proxy: 'http://proxy.corp.example:3128' },
    });
    const redact = createClientRedactor(config, (text) =>
      text.replaceAll('sk-live-0123456789abcdef', '[redacted]'),
    );
    expect(
      redact(
        'POST https://llm.corp.example/v1/chat/completions failed (llm.corp.example:443), ' +
          'embeddings at 10.0.0.7:9000 via proxy.corp.example:3128; key sk-live-0123456789abcdef; ' +
          'searxng at http://10.0.0.9:8888/search; ' +
          'page https://en.wikipedia.org/wiki/Paris',
      ),
    ).toBe(
      `POST ${hiddenAddress}/chat/completions failed (${hiddenAddress}), embeddings at ${hiddenAddress} via ` +
        `${hiddenAddress}; key [redacted]; searxng at http://10.0.0.9:8888/search; page https://en.wikipedia.org/wiki/Paris`,
    );
  });
});

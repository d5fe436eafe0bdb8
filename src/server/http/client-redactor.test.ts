import { describe, expect, it } from 'vitest';
import { createTestConfig } from '../../testing/test-config.js';
import { createClientRedactor, hiddenAddress } from './client-redactor.js';

describe('createClientRedactor', () => {
  it('hides the configured services as URLs and host:port, and the secrets; leaves other addresses', () => {
    const config = createTestConfig({
      llm: { baseURL: 'https://llm.corp.example/v1', model: 'm', apiKey: 'sk-live-0123456789abcdef' },
      search: { provider: 'searxng', searxngUrl: 'http://10.0.0.9:8888' },
      network: { proxy: 'http://proxy.corp.example:3128' },
    });
    const redact = createClientRedactor(config, (text) =>
      text.replaceAll('sk-live-0123456789abcdef', '[redacted]'),
    );
    expect(
      redact(
        'POST https://llm.corp.example/v1/chat/completions failed (llm.corp.example:443), ' +
          'searxng at http://10.0.0.9:8888/search (10.0.0.9:8888) via proxy.corp.example:3128; key sk-live-0123456789abcdef; ' +
          'page https://en.wikipedia.org/wiki/Paris',
      ),
    ).toBe(
      `POST ${hiddenAddress}/chat/completions failed (${hiddenAddress}), searxng at ${hiddenAddress}/search ` +
        `(${hiddenAddress}) via ${hiddenAddress}; key [redacted]; page https://en.wikipedia.org/wiki/Paris`,
    );
  });
});

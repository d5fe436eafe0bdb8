import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load-config.js';
import { redactConfig } from '../../config/redact-config.js';
import { ConfigError } from '../../errors/index.js';
import { startFakeHttpServer } from '../../testing/fake-http-server.js';
import { createPageReader, readerProviderIds } from './reader-registry.js';

describe('createPageReader', () => {
  it('makes the builtin reader by default and the Jina reader for --reader jina', () => {
    expect(createPageReader(loadConfig({}).reader).id).toBe('builtin');
    expect(createPageReader(loadConfig({ flags: { reader: 'jina' } }).reader).id).toBe('jina');
    expect(readerProviderIds).toEqual(['builtin', 'jina']);
  });

  it('names the readers that exist when asked for one that does not', () => {
    const make = () => createPageReader(loadConfig({ env: { DEEPSEARCH_READER: 'firecrawl' } }).reader);
    expect(make).toThrow(ConfigError);
    expect(make).toThrow("unknown reader 'firecrawl' (available: builtin, jina)");
  });

  it('reads JINA_API_KEY into the Jina settings, sends it, and keeps it out of --debug output', async () => {
    const server = await startFakeHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ data: { title: 'T', content: 'Body text.' } }));
    });
    try {
      const config = loadConfig({
        env: {
          JINA_API_KEY: 'jina_secret_value',
          DEEPSEARCH_READER: 'jina',
          DEEPSEARCH_RESPECT_ROBOTS_TXT: 'true',
        },
        file: { reader: { jina: { baseURL: server.url } } },
      });
      expect(config.reader.respectRobotsTxt).toBe(true);
      const page = await createPageReader(config.reader).read('https://example.com/');
      expect(page.text).toBe('Body text.');
      expect(server.requests[0]?.headers.authorization).toBe('Bearer jina_secret_value');
      expect(JSON.stringify(redactConfig(config))).not.toContain('jina_secret_value');
    } finally {
      await server.close();
    }
  });
});

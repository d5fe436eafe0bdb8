import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load-config.js';
import { redactConfig } from '../../config/redact-config.js';
import { ConfigError } from '../../core/errors/index.js';
import { startFakeHttpServer } from '../../testing/fake-http-server.js';
import { createPageReader, readerProviderIds } from './reader-registry.js';

describe('createPageReader', () => {
  it('makes the auto reader by default, and the builtin, browser or Jina reader when asked', () => {
    expect(createPageReader(loadConfig({}).reader).id).toBe('auto');
    for (const id of ['builtin', 'browser', 'jina']) {
      expect(createPageReader(loadConfig({ flags: { reader: id } }).reader).id).toBe(id);
    }
    expect(readerProviderIds).toEqual(['auto', 'builtin', 'browser', 'jina']);
  });

  it('says what to install when --reader browser finds no Chromium, at the first read', async () => {
    const config = loadConfig({
      flags: { reader: 'browser' },
      env: { DEEPSEARCH_CHROMIUM_PATH: '/nowhere/chromium' },
    });
    // An address literal: nothing to resolve, and nothing is sent, since no browser starts.
    await expect(createPageReader(config.reader).read('http://93.184.216.34/')).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'chromium_missing',
      message: 'Chromium is not at /nowhere/chromium (DEEPSEARCH_CHROMIUM_PATH): install it or fix the path',
    });
  });

  it('names the readers that exist when asked for one that does not', () => {
    const make = () => createPageReader(loadConfig({ env: { DEEPSEARCH_READER: 'firecrawl' } }).reader);
    expect(make).toThrow(ConfigError);
    expect(make).toThrow("unknown reader 'firecrawl' (available: auto, builtin, browser, jina)");
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

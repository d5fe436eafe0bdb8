import { afterEach } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeWebPage, startFakeWeb } from './fake-web-server.js';

/**
 * For a test file: `const serve = useFakeWeb()`, then `await serve({ '/path': { html } })` in a test.
 * The server started by a test is closed after it.
 */
export function useFakeWeb(): (pages: Record<string, FakeWebPage>) => Promise<FakeHttpServer> {
  let web: FakeHttpServer | undefined;
  afterEach(async () => {
    await web?.close();
    web = undefined;
  });
  return async (pages) => {
    await web?.close();
    web = await startFakeWeb({ pages });
    return web;
  };
}

import {
  type FakeHttpHandler,
  type FakeHttpServer,
  startFakeHttpServer,
} from '../../src/testing/fake-http-server.js';

/**
 * One fake server at a time for a test file: `start` replaces it, `close` (from afterEach) stops
 * it, so a failing test never leaves a port open.
 */
export function createFakeServerSlot(): {
  start(handler: FakeHttpHandler): Promise<FakeHttpServer>;
  close(): Promise<void>;
} {
  let server: FakeHttpServer | undefined;
  return {
    async start(handler) {
      await server?.close();
      server = await startFakeHttpServer(handler);
      return server;
    },
    async close() {
      await server?.close();
      server = undefined;
    },
  };
}

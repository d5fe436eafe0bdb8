import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The e2e suites spawn the built CLI, servers, Chromium, redis and postgres; on a loaded 2-core
    // machine one such test can take 20 s without anything being wrong. A real hang still fails.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

import { defineConfig } from 'vitest/config';

// Four projects, by what a test needs (docs/development.md):
// - unit: in one process, no child process, no browser, no built CLI: `npm run test:unit`, fast;
// - integration: servers and child processes on 127.0.0.1 from the sources (the HTTP API through
//   real clients, the extraction and sandbox processes, the embedded model);
// - e2e: the built CLI and package (dist/, so after `npm run build`), Chromium;
// - services: real Redis and Postgres started on free ports (test/helpers/scale-services.ts).
// `npm test` runs them all.

/**
 * Tests beside the code (or in test/agent) that start a child process (the extraction pool, the
 * sandbox host, a native-module check) or Chromium: they run with integration or e2e.
 */
const processTests = [
  'src/extraction/worker/**/*.test.ts',
  'src/providers/code-runner/**/*.test.ts',
  'src/embedded-model/**/*.test.ts',
  'src/providers/reader/builtin/builtin-reader*.test.ts',
  'src/providers/reader/file/file-reader.test.ts',
  'src/runtime/create-provider-cache.test.ts',
  'src/mcp/create-mcp-server.test.ts',
  'src/knowledge/knowledge-base.test.ts',
  'src/knowledge/ingest-limits.test.ts',
  'src/cli/commands/read/read-command.test.ts',
  'src/cli/commands/read/read-extractor.test.ts',
  'src/cli/commands/kb/kb-command.test.ts',
  'test/agent/local-sources.test.ts',
  'test/agent/coding-action.test.ts',
];
const browserTests = [
  'src/providers/reader/browser/browser-reader.test.ts',
  'src/providers/reader/browser/auto-reader.test.ts',
  'src/providers/reader/browser/render-page.test.ts',
  'src/platform/browser/print-pdf.test.ts',
  'src/cli/commands/doctor/doctor-browser-check.test.ts',
];

export default defineConfig({
  test: {
    // The e2e suites spawn the built CLI, servers, Chromium, redis and postgres; on a loaded 2-core
    // machine one such test can take 20 s without anything being wrong. A real hang still fails.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // One process, so threads and modules kept between files: the suite is import-bound (each
          // file re-importing zod, the AI SDK, linkedom...), and no unit test changes a module's state.
          pool: 'threads',
          isolate: false,
          include: [
            'src/**/*.test.ts',
            'test/agent/**/*.test.ts',
            'test/research/**/*.test.ts',
            'test/helpers/**/*.test.ts',
          ],
          exclude: [...processTests, ...browserTests],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [
            ...processTests,
            'test/server/**/*.test.ts',
            'test/runtime/**/*.test.ts',
            'test/library/**/*.test.ts',
            'test/embedded/**/*.test.ts',
            'test/docs/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [
            ...browserTests,
            'test/e2e/**/*.test.ts',
            'test/browser/**/*.test.ts',
            'test/packaging/**/*.test.ts',
            'test/bench/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: { name: 'services', include: ['test/scale/**/*.test.ts', 'test/distributed/**/*.test.ts'] },
      },
    ],
  },
});

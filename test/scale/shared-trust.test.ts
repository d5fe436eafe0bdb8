// Domain trust in queue mode: runtimes (workers) read and save the profiles through the Postgres
// trust store, a real Postgres on 127.0.0.1. Two workers' runs on one domain both count: the
// counts are added in the database, never overwritten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustStore } from '../../src/knowledge/trust-store.js';
import { createRuntime } from '../../src/runtime/create-runtime.js';
import { createRuntimeTrust } from '../../src/runtime/runtime-trust.js';
import { createPostgresDatabase } from '../../src/scale/postgres/postgres-database.js';
import { createPostgresTrustStore } from '../../src/scale/postgres/postgres-trust-store.js';
import { createScriptedLlm } from '../../src/testing/scripted-llm.js';
import { createTestConfig } from '../../src/testing/test-config.js';
import { needServices, type PostgresService, startPostgres } from '../helpers/scale-services.js';
import { tidesProviders, tidesQuestion, tidesSteps } from '../helpers/tides-world.js';

const available = needServices('postgres');
let postgres: PostgresService | undefined;
beforeAll(async () => {
  if (available) postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

/** One worker's runtime: its own pool on the shared database, as a worker process has. */
function workerRuntime(url: string) {
  const trustStore = createPostgresTrustStore({ database: createPostgresDatabase({ url }), url });
  const llm = createScriptedLlm(tidesSteps());
  const runtime = createRuntime({
    config: createTestConfig({}),
    ...tidesProviders(),
    createModel: () => llm,
    trustStore,
  });
  return {
    runtime,
    llm,
    trustStore,
    close: async () => {
      runtime.close();
      await trustStore.close();
    },
  };
}

describe.skipIf(!available)('domain trust shared through Postgres', () => {
  it("adds two workers' runs on one domain together, and each worker sees the sum", async () => {
    const url = await postgres!.createDatabase();
    const [first, second] = [workerRuntime(url), workerRuntime(url)];
    try {
      await Promise.all([
        first.runtime.run({ mode: 'search', question: tidesQuestion }),
        second.runtime.run({ mode: 'search', question: tidesQuestion }),
      ]);
      first.llm.assertConsumed();
      second.llm.assertConsumed();
      const stored = await first.trustStore.load();
      expect(stored['tides.example']).toMatchObject({
        references: 2,
        successes: 2,
        failures: 0,
        https: true,
      });
      expect(stored['walled.example']).toMatchObject({ blocked: 2, successes: 0 });
      // The worker that saved last has both runs' counts; the earlier one has its own at least.
      const seen = [first, second].map((worker) => worker.runtime.trustOf('tides.example').references);
      expect(Math.max(...seen)).toBe(2);
      expect(Math.min(...seen)).toBeGreaterThanOrEqual(1);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
    // A worker started later reads the sum before its first run.
    const third = workerRuntime(url);
    try {
      const trust = createRuntimeTrust({ config: createTestConfig({}), store: third.trustStore });
      expect((await trust.load()).trustOf('walled.example')).toMatchObject({ blocked: 2, blockedFlag: true });
    } finally {
      await third.close();
    }
  });

  it('sends what a runtime changed once, however many of its runs end together', async () => {
    const url = await postgres!.createDatabase();
    const store = createPostgresTrustStore({ database: createPostgresDatabase({ url }), url });
    // Each save waits a little: the runs' saves overlap.
    const slow: TrustStore = {
      ...store,
      save: async (changes) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return store.save(changes);
      },
    };
    try {
      const trust = createRuntimeTrust({ config: createTestConfig({}), store: slow });
      const health = await trust.load();
      const warnings: string[] = [];
      health.record('busy.example', 'ok');
      const firstRun = trust.settle(health, [{ url: 'https://busy.example/a' }], (message) =>
        warnings.push(message),
      );
      health.record('busy.example', 'ok');
      const secondRun = trust.settle(health, [], (message) => warnings.push(message));
      health.record('busy.example', 'failed');
      await Promise.all([firstRun, secondRun]);
      expect(warnings).toEqual([]);
      expect((await store.load())['busy.example']).toMatchObject({
        successes: 2,
        failures: 1,
        references: 1,
      });
      expect(health.unsavedChanges()).toEqual([]);
      expect(health.trustOf('busy.example')).toMatchObject({ successes: 2, failures: 1, references: 1 });
    } finally {
      await store.close();
    }
  });
});

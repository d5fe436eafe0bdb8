// Domain trust as workers share it: today's records in the knowledge base's SQLite file, and the
// Postgres store. Saves add up (two writers both count), whichever implementation keeps them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrustRecords } from '../../src/knowledge/trust-records.js';
import { type TrustStore, toTrustStore } from '../../src/knowledge/trust-store.js';
import type { HostHealthChange } from '../../src/retrieval/host-health.js';
import { createPostgresDatabase } from '../../src/scale/postgres/postgres-database.js';
import { createPostgresTrustStore } from '../../src/scale/postgres/postgres-trust-store.js';
import { needServices, type PostgresService, startPostgres } from '../helpers/scale-services.js';

const postgresAvailable = needServices('postgres');
let postgres: PostgresService | undefined;
let folder: string;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'deepsearch-trust-contract-'));
  if (postgresAvailable) postgres = await startPostgres();
}, 60_000);
afterAll(async () => {
  await postgres?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** Two stores on one place: two processes sharing the profiles. */
type Pair = () => Promise<[TrustStore, TrustStore]>;
let files = 0;
const implementations: Array<{ name: string; available: boolean; pair: Pair }> = [
  {
    name: 'SQLite (knowledge base)',
    available: true,
    pair: async () => {
      const knowledgeFile = join(folder, `knowledge-${++files}.sqlite`);
      return [
        toTrustStore(createTrustRecords({ knowledgeFile })!),
        toTrustStore(createTrustRecords({ knowledgeFile })!),
      ];
    },
  },
  {
    name: 'Postgres',
    available: postgresAvailable,
    pair: async () => {
      const url = await postgres!.createDatabase();
      const open = () => createPostgresTrustStore({ database: createPostgresDatabase({ url }), url });
      return [open(), open()];
    },
  },
];

const change = (host: string, fields: Partial<HostHealthChange>): HostHealthChange => ({
  host,
  failures: 0,
  successes: 0,
  paywalled: 0,
  blocked: 0,
  references: 0,
  ...fields,
});

for (const implementation of implementations) {
  describe.skipIf(!implementation.available)(`trust store contract: ${implementation.name}`, () => {
    it('adds counts, keeps the earliest first visit and the latest problem; the newest https wins', async () => {
      const [one, two] = await implementation.pair();
      expect(await one.load()).toEqual({});
      await one.save([
        change('a.example', { successes: 2, firstSeen: '2026-01-05T00:00:00.000Z', https: true }),
        change('b.example', { failures: 1, lastProblemAt: '2026-01-02T00:00:00.000Z' }),
      ]);
      const saved = await two.save([
        change('a.example', {
          successes: 1,
          references: 3,
          firstSeen: '2026-01-01T00:00:00.000Z',
          https: false,
        }),
        change('b.example', { failures: 2, paywalled: 1, lastProblemAt: '2026-01-01T00:00:00.000Z' }),
      ]);
      expect(saved['a.example']).toEqual({
        failures: 0,
        successes: 3,
        paywalled: 0,
        blocked: 0,
        references: 3,
        firstSeen: '2026-01-01T00:00:00.000Z',
        https: false,
      });
      expect(saved['b.example']).toMatchObject({
        failures: 3,
        paywalled: 1,
        lastProblemAt: '2026-01-02T00:00:00.000Z',
      });
      expect(await one.load()).toEqual(saved);
      await one.close();
      await two.close();
    });

    it('saves made at the same time by two stores all count', async () => {
      const [one, two] = await implementation.pair();
      const saves = Array.from({ length: 20 }, (_, index) =>
        (index % 2 ? one : two).save([
          change('busy.example', { successes: 1, blocked: index % 3 === 0 ? 1 : 0 }),
        ]),
      );
      await Promise.all(saves);
      expect((await one.load())['busy.example']).toMatchObject({ successes: 20, blocked: 7 });
      expect(await one.save([])).toEqual({});
      await one.close();
      await two.close();
    });
  });
}

describe.skipIf(!postgresAvailable)('Postgres trust store', () => {
  it('merges several changes of one host in a save instead of failing the upsert', async () => {
    const url = await postgres!.createDatabase();
    const store = createPostgresTrustStore({ database: createPostgresDatabase({ url }), url });
    const saved = await store.save([
      change('c.example', { failures: 1, lastProblemAt: '2026-02-01T00:00:00.000Z', https: true }),
      change('c.example', { failures: 1, lastProblemAt: '2026-03-01T00:00:00.000Z' }),
    ]);
    expect(saved['c.example']).toMatchObject({
      failures: 2,
      lastProblemAt: '2026-03-01T00:00:00.000Z',
      https: true,
    });
    await store.close();
  });
});

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostHealth } from '../retrieval/host-health.js';
import { createTrustRecords, type TrustRecords } from './trust-records.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
const now = new Date('2026-03-01T10:00:00Z');

let folder: string;
let file: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'deepsearch-trust-records-'));
  file = join(folder, 'knowledge.sqlite');
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** better-sqlite3 counting the connections it opens. */
function countingDriver() {
  const opened: string[] = [];
  class Counting extends Database {
    constructor(filename: string, options?: BetterSqlite3.Options) {
      super(filename, options);
      opened.push(filename);
    }
  }
  return { opened, loadDriver: () => Counting as unknown as typeof BetterSqlite3 };
}

/** Every row any connection inserts or updates in `domains`, by host (triggers live in the file). */
function watchWrites(): { writes(): string[]; close(): void } {
  const database = new Database(file);
  database.exec(`
    CREATE TABLE IF NOT EXISTS domains (host TEXT PRIMARY KEY, first_seen TEXT, reference_count INTEGER NOT NULL DEFAULT 0,
      failures INTEGER NOT NULL DEFAULT 0, successes INTEGER NOT NULL DEFAULT 0, paywalled INTEGER NOT NULL DEFAULT 0,
      blocked INTEGER NOT NULL DEFAULT 0, https INTEGER, last_problem_at TEXT) WITHOUT ROWID;
    CREATE TABLE domain_writes (host TEXT NOT NULL);
    CREATE TRIGGER domains_inserted AFTER INSERT ON domains BEGIN INSERT INTO domain_writes VALUES (new.host); END;
    CREATE TRIGGER domains_updated AFTER UPDATE ON domains BEGIN INSERT INTO domain_writes VALUES (new.host); END;`);
  const select = database.prepare('SELECT host FROM domain_writes ORDER BY rowid');
  const clear = database.prepare('DELETE FROM domain_writes');
  return {
    writes() {
      const hosts = (select.all() as Array<{ host: string }>).map((row) => row.host);
      clear.run();
      return hosts;
    },
    close: () => database.close(),
  };
}

function save(records: TrustRecords, health: HostHealth): void {
  health.markSaved(records.save(health.unsavedChanges()));
}

describe('trust records in the knowledge base', () => {
  it('write only the hosts changed since the last save, over one connection until closed', () => {
    const watch = watchWrites();
    const { opened, loadDriver } = countingDriver();
    const records = createTrustRecords({ knowledgeFile: file, loadDriver })!;
    const health = new HostHealth(records.load());
    for (let index = 0; index < 50; index++) health.recordUrl(`https://host${index}.example/`, 'ok', now);
    save(records, health);
    expect(watch.writes()).toHaveLength(50);

    health.recordUrl('https://host3.example/a', 'failed', now);
    health.recordReference('https://host7.example/b', now);
    health.recordUrl('https://host3.example/c', 'ok', now);
    save(records, health);
    expect(watch.writes().sort()).toEqual(['host3.example', 'host7.example']);

    // Nothing changed: nothing written, not even a transaction.
    expect(health.unsavedChanges()).toEqual([]);
    expect(records.save(health.unsavedChanges())).toEqual({});
    expect(watch.writes()).toEqual([]);
    expect(opened).toEqual([file]);

    // close() releases the connection; the next save opens one again.
    records.close();
    health.recordUrl('https://host9.example/', 'blocked', now);
    save(records, health);
    expect(watch.writes()).toEqual(['host9.example']);
    expect(opened).toEqual([file, file]);
    records.close();
    watch.close();

    const stored = createTrustRecords({ knowledgeFile: file })!;
    expect(stored.load()['host3.example']).toMatchObject({ successes: 2, failures: 1 });
    expect(stored.load()['host9.example']).toMatchObject({ successes: 1, blocked: 1 });
    stored.close();
  });

  it('reading a missing file neither creates it nor keeps a connection', () => {
    const { opened, loadDriver } = countingDriver();
    const records = createTrustRecords({ knowledgeFile: file, loadDriver })!;
    expect(records.load()).toEqual({});
    expect(opened).toEqual([]);
    records.close();
  });

  it('add up the counts of two processes updating the same domain', () => {
    const first = createTrustRecords({ knowledgeFile: file })!;
    const second = createTrustRecords({ knowledgeFile: file })!;
    const a = new HostHealth(first.load());
    const b = new HostHealth(second.load());
    a.recordUrl('https://shared.example/x', 'ok', new Date('2026-03-01T10:00:00Z'));
    a.recordUrl('https://shared.example/y', 'failed', new Date('2026-03-01T10:05:00Z'));
    b.recordUrl('http://shared.example/z', 'ok', new Date('2026-03-01T09:00:00Z'));
    b.recordReference('http://shared.example/z', new Date('2026-03-01T09:00:00Z'));
    b.recordUrl('https://other.example/', 'paywalled', new Date('2026-03-01T09:30:00Z'));
    save(first, a);
    save(second, b);
    const merged = {
      failures: 1,
      successes: 2,
      paywalled: 0,
      blocked: 0,
      references: 1,
      firstSeen: '2026-03-01T09:00:00.000Z',
      lastProblemAt: '2026-03-01T10:05:00.000Z',
      // The later save read the domain over http.
      https: false,
    };
    expect(first.load()['shared.example']).toEqual(merged);
    // The saving runtime now holds the merged profile; the other learns it on its next save.
    expect(b.trustOf('shared.example')).toMatchObject({ successes: 2, failures: 1, references: 1 });
    expect(a.trustOf('shared.example')).toMatchObject({ successes: 1, failures: 1 });
    a.recordUrl('https://shared.example/w', 'ok', now);
    save(first, a);
    expect(a.trustOf('shared.example')).toMatchObject({
      successes: 3,
      failures: 1,
      references: 1,
      https: true,
    });
    expect(second.load()['other.example']).toMatchObject({ paywalled: 1 });
    first.close();
    second.close();
  });

  it('keep changes unsaved when a save fails, and save them with the next one', () => {
    const records = createTrustRecords({ knowledgeFile: file })!;
    const health = new HostHealth();
    health.recordUrl('https://a.example/', 'ok', now);
    save(records, health);
    records.close();
    health.recordUrl('https://a.example/', 'failed', now);
    const blocker = new Database(file);
    blocker.exec('DROP TABLE domains; CREATE VIEW domains AS SELECT 1 AS host');
    expect(() => save(records, health)).toThrow();
    records.close();
    blocker.exec('DROP VIEW domains');
    blocker.close();
    expect(health.unsavedChanges()).toMatchObject([{ host: 'a.example', failures: 1, successes: 0 }]);
    health.recordUrl('https://b.example/', 'ok', now);
    save(records, health);
    expect(records.load()).toEqual({
      'a.example': expect.objectContaining({ failures: 1, successes: 0 }),
      'b.example': expect.objectContaining({ successes: 1 }),
    });
    records.close();
  });
});

describe('trust records in a JSON file', () => {
  it('merge the changed hosts into the file and keep the others as they are', () => {
    const json = join(folder, 'hosts.json');
    writeFileSync(
      json,
      JSON.stringify({
        'kept.example': { failures: 4, successes: 0, paywalled: 0 },
        'shared.example': { failures: 0, successes: 5, paywalled: 1, references: 2 },
        'damaged.example': { failures: 'many' },
      }),
    );
    const records = createTrustRecords({ jsonFile: json })!;
    const health = new HostHealth();
    health.recordUrl('https://shared.example/', 'ok', now);
    health.recordUrl('https://damaged.example/', 'failed', now);
    save(records, health);
    const stored = JSON.parse(readFileSync(json, 'utf8'));
    expect(stored['kept.example']).toEqual({ failures: 4, successes: 0, paywalled: 0 });
    expect(stored['shared.example']).toMatchObject({
      successes: 6,
      paywalled: 1,
      references: 2,
      https: true,
    });
    expect(stored['damaged.example']).toMatchObject({ failures: 1, successes: 0 });
    expect(health.trustOf('shared.example').successes).toBe(6);
  });

  it('start afresh from a file that holds no object', () => {
    const json = join(folder, 'hosts.json');
    writeFileSync(json, '"damaged"');
    const records = createTrustRecords({ jsonFile: json })!;
    expect(records.load()).toEqual({});
    const health = new HostHealth();
    health.recordUrl('https://a.example/', 'ok', now);
    save(records, health);
    expect(Object.keys(JSON.parse(readFileSync(json, 'utf8')))).toEqual(['a.example']);
  });
});

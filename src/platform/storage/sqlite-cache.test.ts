import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors/index.js';
import { createSqliteCache, loadBetterSqlite3, type ResponseCache } from './sqlite-cache.js';

let dir: string;
const opened: ResponseCache[] = [];
let clock = 1_700_000_000_000;
const now = () => clock;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-cache-'));
  clock = 1_700_000_000_000;
});

afterEach(() => {
  for (const cache of opened.splice(0)) cache.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(file = join(dir, 'nested', 'cache.sqlite')): ResponseCache {
  const cache = createSqliteCache({ file, now });
  opened.push(cache);
  return cache;
}

describe('createSqliteCache', () => {
  it('stores JSON values per kind and key, in a folder it creates', () => {
    const cache = open();
    cache.set('search', 'q', [{ url: 'https://a.example/', title: 'A' }], 60);
    cache.set('page', 'q', { url: 'https://a.example/', text: 'page' }, 60);
    expect(cache.get('search', 'q')).toEqual([{ url: 'https://a.example/', title: 'A' }]);
    expect(cache.get('page', 'q')).toEqual({ url: 'https://a.example/', text: 'page' });
    expect(cache.get('search', 'other')).toBeUndefined();
  });

  it('forgets an entry once its time to live has passed, and prunes it', () => {
    const cache = open();
    cache.set('search', 'short', 'a', 10);
    cache.set('search', 'long', 'b', 100);
    clock += 9_999;
    expect(cache.get('search', 'short')).toBe('a');
    clock += 1;
    expect(cache.get('search', 'short')).toBeUndefined();
    expect(cache.get('search', 'long')).toBe('b');
    expect(cache.prune()).toBe(1);
  });

  it('replaces an entry written again, with the new expiry', () => {
    const cache = open();
    cache.set('page', 'u', 'old', 10);
    clock += 5_000;
    cache.set('page', 'u', 'new', 10);
    clock += 8_000;
    expect(cache.get('page', 'u')).toBe('new');
  });

  it('keeps entries across processes: a second handle on the same file sees them', () => {
    const file = join(dir, 'shared.sqlite');
    const first = open(file);
    first.set('search', 'q', { hits: 1 }, 60);
    first.close();
    expect(open(file).get('search', 'q')).toEqual({ hits: 1 });
    // A closed handle reopens on demand.
    expect(first.get('search', 'q')).toEqual({ hits: 1 });
  });

  it('does not store an entry with no time to live', () => {
    const cache = open();
    cache.set('search', 'q', 'x', 0);
    expect(cache.get('search', 'q')).toBeUndefined();
  });

  it('explains a folder it cannot create, naming the variable and --no-cache', () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const cache = open(join(blocker, 'cache.sqlite'));
    const error = (() => {
      try {
        cache.get('search', 'q');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/DEEPSEARCH_CACHE_DIR.*--no-cache/);
  });

  it("writes a turn's entries together at its end, in one transaction; a get sees them at once", async () => {
    const file = join(dir, 'turn.sqlite');
    const transactions: number[] = [];
    const Real = loadBetterSqlite3();
    class Counting extends Real {
      override transaction<F extends (...args: never[]) => unknown>(fn: F): BetterSqlite3.Transaction<F> {
        transactions.push(1);
        return super.transaction(fn);
      }
    }
    const cache = createSqliteCache({ file, now, loadDriver: () => Counting as typeof BetterSqlite3 });
    opened.push(cache);
    for (let index = 0; index < 5; index++) cache.set('page', `u${index}`, { index }, 60);
    cache.set('page', 'u0', { index: 'again' }, 60);
    // Seen at once by this handle, not yet by another (another process).
    expect(cache.get('page', 'u0')).toEqual({ index: 'again' });
    expect(cache.get('page', 'u4')).toEqual({ index: 4 });
    const other = open(file);
    expect(other.get('page', 'u4')).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(transactions).toHaveLength(1);
    expect(other.get('page', 'u0')).toEqual({ index: 'again' });
    expect(other.get('page', 'u4')).toEqual({ index: 4 });
    // A value set is a copy: changing the object after does not change the entry.
    const hits = [{ url: 'https://a.example/' }];
    cache.set('search', 'q', hits, 60);
    hits.push({ url: 'https://b.example/' });
    expect(cache.get('search', 'q')).toEqual([{ url: 'https://a.example/' }]);
    // An entry still waiting expires as a stored one does.
    clock += 60_000;
    expect(cache.get('search', 'q')).toBeUndefined();
  });

  it('a write that failed is thrown by the next set; close writes what is waiting', async () => {
    const file = join(dir, 'failing.sqlite');
    let failing = true;
    const Real = loadBetterSqlite3();
    class Failing extends Real {
      constructor(...args: ConstructorParameters<typeof Real>) {
        super(...args);
        const prepare = this.prepare.bind(this);
        // Its INSERTs fail while `failing` is set (a full disk).
        this.prepare = ((source: string) => {
          const statement = prepare(source);
          if (!source.startsWith('INSERT')) return statement;
          const run = statement.run.bind(statement) as (...args: unknown[]) => BetterSqlite3.RunResult;
          statement.run = ((...values: unknown[]) => {
            if (failing) throw new Error('SQLITE_FULL: database or disk is full');
            return run(...values);
          }) as typeof statement.run;
          return statement;
        }) as typeof this.prepare;
      }
    }
    const cache = createSqliteCache({ file, now, loadDriver: () => Failing as typeof BetterSqlite3 });
    opened.push(cache);
    cache.set('page', 'lost', 1, 60);
    await new Promise((resolve) => setImmediate(resolve));
    expect(() => cache.set('page', 'next', 2, 60)).toThrow('SQLITE_FULL');
    failing = false;
    cache.set('page', 'kept', 3, 60);
    cache.close();
    const other = open(file);
    expect(other.get('page', 'kept')).toBe(3);
    expect(other.get('page', 'lost')).toBeUndefined();
  });
});

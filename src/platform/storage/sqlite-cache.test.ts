import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/errors/index.js';
import { createSqliteCache, type ResponseCache } from './sqlite-cache.js';

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
});

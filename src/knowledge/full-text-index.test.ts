import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { addTextDocument as add } from '../../test/helpers/add-text-document.js';
import { createStatementCache } from '../platform/storage/statement-cache.js';
import { FullTextIndex } from './full-text-index.js';
import { KnowledgeStore } from './knowledge-store.js';

const dir = mkdtempSync(join(tmpdir(), 'full-text-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('FullTextIndex word counts', () => {
  it('are forgotten when another process writes to the same base', () => {
    const file = join(dir, 'shared.sqlite');
    const reader = new KnowledgeStore({ file, vectorBackend: 'exact-scan' });
    const writer = new KnowledgeStore({ file, vectorBackend: 'exact-scan' });
    add(writer, 'a.txt', 'the turbine manual');
    add(writer, 'b.txt', 'the boiler manual');
    add(writer, 'c.txt', 'the heat pump notes');
    // "manual" is in 2 of 3 chunks: more than half, so it is left out.
    expect(reader.informativeWords(['turbine', 'manual'])).toEqual(['turbine']);
    for (let index = 0; index < 4; index++) add(writer, `n${index}.txt`, `notes ${index}`);
    // Now in 2 of 7: the reader sees the other connection's write and counts again.
    expect(reader.informativeWords(['turbine', 'manual'])).toEqual(['turbine', 'manual']);
    reader.close();
    writer.close();
  });
});

describe('FullTextIndex word counts and other writes to the file', () => {
  it('are kept when another process writes only other tables (trust profiles share the file)', () => {
    const file = join(dir, 'trust-shared.sqlite');
    const writer = new KnowledgeStore({ file, vectorBackend: 'exact-scan' });
    add(writer, 'a.txt', 'the turbine manual');
    add(writer, 'b.txt', 'the boiler manual');
    // A reader whose word-count queries are counted.
    const database = new Database(file);
    const cache = createStatementCache(database);
    let counted = 0;
    const index = new FullTextIndex((sql) => {
      if (sql.includes('count(*) AS n FROM chunks_fts')) counted++;
      return cache(sql);
    });
    expect(index.informativeWords(['turbine', 'boiler'])).toEqual(['turbine', 'boiler']);
    expect(counted).toBe(2);
    // Another connection writes a table that is not the chunks': the counts stand.
    const other = new Database(file);
    other.exec('CREATE TABLE IF NOT EXISTS domains_probe (host TEXT); INSERT INTO domains_probe VALUES (1)');
    expect(index.informativeWords(['turbine', 'boiler'])).toEqual(['turbine', 'boiler']);
    expect(counted).toBe(2);
    // A chunk written by another process: counted again.
    add(writer, 'c.txt', 'the turbine notes');
    // "turbine" is now in 2 of 3 chunks: more than half, so it is left out.
    expect(index.informativeWords(['turbine', 'boiler'])).toEqual(['boiler']);
    expect(counted).toBe(4);
    other.close();
    database.close();
    writer.close();
  });
});

describe('FullTextIndex match counts', () => {
  it('count the chunks holding a phrase, of all chunks', () => {
    const store = new KnowledgeStore({ file: join(dir, 'counts.sqlite'), vectorBackend: 'exact-scan' });
    add(store, 'a.txt', 'Heat pump notes by Nora Lind');
    add(store, 'b.txt', 'Nora wrote about a pump');
    add(store, 'c.txt', 'Lind Nora is another name');
    expect(store.fullTextCount('"nora lind"')).toEqual({ rows: 1, of: 3 });
    expect(store.fullTextCount('"nora"')).toEqual({ rows: 3, of: 3 });
    expect(store.fullTextCount('"boiler"')).toEqual({ rows: 0, of: 3 });
    expect(store.fullTextCount('')).toEqual({ rows: 0, of: 3 });
    store.close();
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addTextDocument as add } from '../testing/add-text-document.js';
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

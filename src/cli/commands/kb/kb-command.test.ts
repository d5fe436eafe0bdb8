import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliInMemory } from '../../../../test/helpers/run-cli-in-memory.js';

let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kb-cli-'));
  mkdirSync(join(folder, 'notes'));
  writeFileSync(join(folder, 'notes', 'audit.md'), '# Audit 2023\n\nKeys were rotated every 400 days.\n');
  writeFileSync(join(folder, 'notes', 'team.txt'), 'The audit team met in Leeds.\n');
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function run(args: string[]) {
  // The default database goes to the data directory: a temporary one here.
  return runCliInMemory(args, { env: { XDG_DATA_HOME: join(folder, 'data') }, cwd: folder });
}

describe('deepsearch kb', () => {
  it('adds a folder to the default database, lists, searches with explained scores, removes', async () => {
    const added = await run(['kb', 'add', 'notes', '--json']);
    expect(added.code).toBe(0);
    const report = JSON.parse(added.stdout);
    expect(report.file).toBe(join(folder, 'data', 'deepsearch', 'knowledge.sqlite'));
    expect(report.added).toHaveLength(2);

    const list = JSON.parse((await run(['kb', 'list', '--json'])).stdout);
    expect(list.documents.map((document: { title: string }) => document.title).sort()).toEqual([
      'Audit 2023',
      'team',
    ]);

    const search = await run(['kb', 'search', 'key', 'rotation', '--json', '--limit', '1']);
    expect(search.code).toBe(0);
    const result = JSON.parse(search.stdout);
    expect(result.hits).toHaveLength(1);
    expect(result.hits[0].url).toMatch(/^kb:default\/[0-9a-f]{12}#chunk-0$/);
    expect(result.hits[0].explain.fullText.rank).toBe(1);
    expect(result.vectorIndex).toMatch(/sqlite-vec|exact-scan/);

    const text = await run(['kb', 'search', 'rotation', '--debug']);
    expect(text.stdout).toContain('why: full text #1');
    expect(text.stderr).toContain('vector index:');

    const stats = await run(['kb', 'stats']);
    expect(stats.stdout).toContain('documents: 2 · chunks: 2');
    expect(stats.stdout).toContain('stored vectors: builtin/hashed-ngrams-1024, 1024 dimensions');

    const removed = await run(['kb', 'remove', 'notes/team.txt']);
    expect(removed.stdout).toMatch(/^removed [0-9a-f]{12} .*team\.txt/);
    expect(JSON.parse((await run(['kb', 'list', '--json'])).stdout).documents).toHaveLength(1);
  });

  it('uses --kb for the database and reports bad input in one line with a non-zero exit', async () => {
    const file = join(folder, 'mine.sqlite');
    expect((await run(['kb', 'add', 'notes/audit.md', '--kb', file, '--quiet'])).stdout).toMatch(/^added 1,/);
    expect(JSON.parse((await run(['kb', 'list', '--kb', file, '--json'])).stdout).documents).toHaveLength(1);

    const missing = await run(['kb', 'add', 'nowhere', '--kb', file]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/nothing was added: nowhere: no such file or folder/);
    const badLimit = await run(['kb', 'search', 'x', '--limit', 'many', '--kb', file]);
    expect(badLimit.code).not.toBe(0);
    expect(badLimit.stderr.trim().split('\n')).toHaveLength(1);
    expect(badLimit.stderr).toContain('--limit must be a whole number');
    const unknown = await run(['kb', 'remove', 'abcdefabcdef', '--kb', file]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no document matches abcdefabcdef');
    // Only add creates a knowledge base: a misspelt --kb elsewhere is an error, and none is created.
    const typo = join(folder, 'mine.sqlit');
    for (const args of [['search', 'x'], ['list'], ['stats'], ['remove', 'abcdefabcdef']]) {
      const result = await run(['kb', ...args, '--kb', typo]);
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(
        `deepsearch: error: no knowledge base at ${typo}: deepsearch kb add <paths> --kb ${typo} creates one`,
      );
    }
    expect(existsSync(typo)).toBe(false);
  });
});

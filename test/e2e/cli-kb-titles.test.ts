import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../helpers/run-built-cli.js';

const folder = mkdtempSync(join(tmpdir(), 'kb-titles-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('deepsearch kb list: document titles (built CLI)', () => {
  it("a .txt file's # line is a comment, not its title; a .md file's # line is", async () => {
    const docs = join(folder, 'docs');
    mkdirSync(docs);
    writeFileSync(join(docs, 'backup.txt'), '#!/bin/sh\n# run nightly by cron\nThe backup runs at 02:00.\n');
    writeFileSync(join(docs, 'guide.md'), '# Backup guide\n\nThe backup runs at 02:00.\n');
    const env = { XDG_DATA_HOME: join(folder, 'data') };
    expect((await runBuiltCli(['kb', 'add', docs], env)).code).toBe(0);
    const listed = await runBuiltCli(['kb', 'list', '--json'], env);
    expect(listed.code).toBe(0);
    const list = JSON.parse(listed.stdout);
    expect(list.documents.map((document: { title: string }) => document.title).sort()).toEqual([
      'Backup guide',
      'backup',
    ]);
  });
});

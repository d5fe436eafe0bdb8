import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInMemory } from '../testing/run-cli-in-memory.js';

const folder = mkdtempSync(join(tmpdir(), 'kb-titles-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('deepsearch kb list: document titles', () => {
  it("a .txt file's # line is a comment, not its title; a .md file's # line is", async () => {
    mkdirSync(join(folder, 'docs'));
    writeFileSync(
      join(folder, 'docs', 'backup.txt'),
      '#!/bin/sh\n# run nightly by cron\nThe backup runs at 02:00.\n',
    );
    writeFileSync(join(folder, 'docs', 'guide.md'), '# Backup guide\n\nThe backup runs at 02:00.\n');
    const env = { XDG_DATA_HOME: join(folder, 'data') };
    expect((await runCliInMemory(['kb', 'add', 'docs'], { env, cwd: folder })).code).toBe(0);
    const list = JSON.parse((await runCliInMemory(['kb', 'list', '--json'], { env, cwd: folder })).stdout);
    expect(list.documents.map((document: { title: string }) => document.title).sort()).toEqual([
      'Backup guide',
      'backup',
    ]);
  });
});

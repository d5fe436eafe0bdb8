import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
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

  it('a PDF printed by Chromium from a page without a title (about:blank) is titled by its file name', async () => {
    const docs = join(folder, 'printed');
    mkdirSync(docs);
    const page = ['Quarterly audit', 'The audit found no open findings.'];
    writeFileSync(join(docs, 'audit-2025.pdf'), makePdf({ pages: [page], title: 'about:blank' }));
    writeFileSync(join(docs, 'saved.pdf'), makePdf({ pages: [page], title: 'file:///tmp/saved.html' }));
    writeFileSync(join(docs, 'named.pdf'), makePdf({ pages: [page], title: 'Audit report 2025' }));
    const env = { XDG_DATA_HOME: join(folder, 'printed-data') };
    const added = await runBuiltCli(['kb', 'add', docs], env);
    expect(added.code, added.stderr).toBe(0);
    const list = JSON.parse((await runBuiltCli(['kb', 'list', '--json'], env)).stdout);
    expect(list.documents.map((document: { title: string }) => document.title).sort()).toEqual([
      'Audit report 2025',
      'audit-2025',
      'saved',
    ]);
  });
});

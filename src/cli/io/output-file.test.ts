import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertWritableFile } from './output-file.js';

const dir = mkdtempSync(join(tmpdir(), 'deepsearch-output-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('assertWritableFile', () => {
  it('accepts a new file in an existing folder and an existing file', () => {
    expect(() => assertWritableFile(join(dir, 'new.md'), '-o', 'new.md')).not.toThrow();
    writeFileSync(join(dir, 'old.md'), 'x');
    expect(() => assertWritableFile(join(dir, 'old.md'), '-o', 'old.md')).not.toThrow();
  });

  it('refuses a missing folder, a file standing where the folder should be, and a folder', () => {
    expect(() => assertWritableFile(join(dir, 'nope', 'r.md'), '-o', 'nope/r.md')).toThrow(
      `cannot write -o nope/r.md: no folder ${join(dir, 'nope')}`,
    );
    writeFileSync(join(dir, 'plain'), 'x');
    expect(() => assertWritableFile(join(dir, 'plain', 'r.md'), '--out', 'plain/r.md')).toThrow(/no folder/);
    mkdirSync(join(dir, 'sub'));
    expect(() => assertWritableFile(join(dir, 'sub'), '--report', 'sub')).toThrow(
      'cannot write --report sub: it is a folder',
    );
  });
});

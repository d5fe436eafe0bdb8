import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTinyGguf } from '../../test/helpers/tiny-gguf.js';
import { checkGgufBytes, checkGgufFile } from './gguf-header.js';

describe('checkGgufFile', () => {
  const model = buildTinyGguf();

  it('accepts a GGUF model and reads its version and architecture', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'gguf-')), 'tiny.gguf');
    writeFileSync(path, model);
    expect(checkGgufFile(path)).toEqual({ ok: true, version: 3, architecture: 'llama' });
  });

  it('names what is wrong with a file that is not one', () => {
    expect(checkGgufBytes(Buffer.from('<html><body>404</body></html>'))).toEqual({
      ok: false,
      problem: 'it does not start with the GGUF signature (it starts with "<html><body>404<")',
    });
    expect(checkGgufBytes(Buffer.alloc(0))).toEqual({
      ok: false,
      problem: 'it does not start with the GGUF signature (it starts with nothing: it is empty)',
    });
    const wrongVersion = Buffer.from(model);
    wrongVersion.writeUInt32LE(9, 4);
    expect(checkGgufBytes(wrongVersion)).toEqual({
      ok: false,
      problem: 'its GGUF version 9 is not 1, 2 or 3',
    });
    expect(checkGgufBytes(model.subarray(0, 200))).toEqual({
      ok: false,
      problem: 'its header is cut short (the file is truncated)',
    });
    const hugeCounts = Buffer.from(model.subarray(0, 24));
    hugeCounts.writeBigUInt64LE(2n ** 40n, 16);
    expect(checkGgufBytes(hugeCounts).ok).toBe(false);
  });

  it('a header longer than what was read is taken as it is, not as truncated', () => {
    expect(checkGgufBytes(model.subarray(0, 200), model.length).ok).toBe(true);
  });
});

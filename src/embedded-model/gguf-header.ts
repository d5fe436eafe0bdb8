import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** What the start of a file says about it as a GGUF model; `problem` when it is not one. */
export type GgufCheck = { ok: true; version: number; architecture: string } | { ok: false; problem: string };

/** How much of the file the check reads: the metadata (vocabulary included) fits in it for real models. */
const maxHeaderBytes = 64 * 1024 * 1024;
/** GGUF metadata value types (gguf.md): fixed sizes in bytes; 8 = string, 9 = array. */
const fixedSizes: Readonly<Record<number, number>> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};

class Truncated extends Error {}

/**
 * Reads a GGUF file's header (magic `GGUF`, version 1–3, tensor and metadata counts) and walks its
 * metadata key/value section, which must name `general.architecture`. Catches what a download
 * can go wrong into — an HTML error page, a truncated or foreign file — before llama.cpp sees it.
 * Metadata running past the first 64 MB is taken as it is (not walked further).
 */
export function checkGgufFile(path: string): GgufCheck {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, maxHeaderBytes));
    readSync(fd, buffer, 0, buffer.length, 0);
    return checkGgufBytes(buffer, size);
  } finally {
    closeSync(fd);
  }
}

/** The check on the first bytes of a file of `fileBytes` bytes. */
export function checkGgufBytes(bytes: Buffer, fileBytes = bytes.length): GgufCheck {
  if (bytes.length < 4 || bytes.toString('latin1', 0, 4) !== 'GGUF') {
    return {
      ok: false,
      problem: `it does not start with the GGUF signature (it starts with ${preview(bytes)})`,
    };
  }
  let offset = 4;
  const need = (count: number) => {
    if (offset + count > bytes.length) throw new Truncated();
    const at = offset;
    offset += count;
    return at;
  };
  const u64 = () => Number(bytes.readBigUInt64LE(need(8)));
  const string = () => {
    const length = u64();
    if (length > 1024 * 1024) throw new RangeError(`a metadata string of ${length} bytes`);
    const at = need(length);
    return bytes.toString('utf8', at, at + length);
  };
  const skipValue = (type: number, depth: number): void => {
    if (type === 8) return void string();
    if (type === 9 && depth < 2) {
      const itemType = bytes.readUInt32LE(need(4));
      const count = u64();
      if (fixedSizes[itemType] !== undefined) return void need(count * fixedSizes[itemType]!);
      for (let index = 0; index < count; index++) skipValue(itemType, depth + 1);
      return;
    }
    const fixed = fixedSizes[type];
    if (fixed === undefined) throw new RangeError(`unknown metadata value type ${type}`);
    need(fixed);
  };
  try {
    const version = bytes.readUInt32LE(need(4));
    if (version < 1 || version > 3)
      return { ok: false, problem: `its GGUF version ${version} is not 1, 2 or 3` };
    const tensors = u64();
    const entries = u64();
    if (tensors > fileBytes || entries > fileBytes) {
      return { ok: false, problem: `its header counts ${tensors} tensors and ${entries} metadata entries` };
    }
    let architecture: string | undefined;
    for (let index = 0; index < entries; index++) {
      const key = string();
      const type = bytes.readUInt32LE(need(4));
      if (key === 'general.architecture' && type === 8) architecture = string();
      else skipValue(type, 0);
    }
    if (!architecture) return { ok: false, problem: 'its metadata names no general.architecture' };
    return { ok: true, version, architecture };
  } catch (error) {
    if (error instanceof Truncated) {
      return bytes.length < fileBytes
        ? { ok: true, version: bytes.readUInt32LE(4), architecture: 'unknown' }
        : { ok: false, problem: 'its header is cut short (the file is truncated)' };
    }
    return { ok: false, problem: `its header is malformed (${(error as Error).message})` };
  }
}

function preview(bytes: Buffer): string {
  const text = bytes.toString('latin1', 0, Math.min(16, bytes.length)).replace(/[^\x20-\x7e]/g, '.');
  return bytes.length === 0 ? 'nothing: it is empty' : JSON.stringify(text);
}

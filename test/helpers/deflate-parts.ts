import { constants, crc32, deflateRawSync } from 'node:zlib';

export interface DeflatePart {
  text: string;
  /** Copies of `text` in a row; default 1. */
  times?: number;
}

export interface DeflatedParts {
  /** Raw deflate (what a ZIP entry holds). */
  raw: Uint8Array;
  /** The same data with the zlib header and Adler-32 (a PDF FlateDecode stream). */
  zlib: Uint8Array;
  /** Inflated size in bytes. */
  size: number;
  /** CRC-32 of the inflated data (a ZIP entry's), 0 unless asked for: it means reading all of it. */
  crc32: number;
}

/**
 * One deflate stream of the parts in order, each repeated, made without deflating the whole: each
 * part is deflated once ending in a full flush (byte-aligned, no back-references across it), so
 * copies of its blocks can follow each other; an empty final block ends the stream. A gigabyte of
 * inflated data costs a few milliseconds, which is how a decompression bomb is built.
 */
export function deflateParts(
  parts: readonly DeflatePart[],
  options: { crc32?: boolean } = {},
): DeflatedParts {
  const blocks: Buffer[] = [];
  let size = 0;
  let crc = 0;
  let adler = { a: 1, b: 0 };
  for (const part of parts) {
    const data = Buffer.from(part.text, 'latin1');
    const times = part.times ?? 1;
    const deflated = deflateRawSync(data, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
    const partAdler = adler32(data);
    for (let index = 0; index < times; index++) {
      blocks.push(deflated);
      if (options.crc32) crc = crc32(data, crc);
      adler = combineAdler32(adler, partAdler, data.length);
    }
    size += data.length * times;
  }
  // BFINAL=1, fixed Huffman, end-of-block at once: an empty last block.
  blocks.push(Buffer.from([0x03, 0x00]));
  const raw = Buffer.concat(blocks);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(((adler.b << 16) | adler.a) >>> 0);
  return { raw, zlib: Buffer.concat([Buffer.from([0x78, 0xda]), raw, checksum]), size, crc32: crc };
}

const adlerBase = 65521;

function adler32(data: Uint8Array): { a: number; b: number } {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % adlerBase;
    b = (b + a) % adlerBase;
  }
  return { a, b };
}

/** zlib's adler32_combine: the checksum of first + second from theirs and second's length. */
function combineAdler32(
  first: { a: number; b: number },
  second: { a: number; b: number },
  secondLength: number,
): { a: number; b: number } {
  const remainder = secondLength % adlerBase;
  return {
    a: (first.a + second.a - 1 + adlerBase) % adlerBase,
    b: (first.b + second.b + ((remainder * (first.a - 1 + adlerBase)) % adlerBase)) % adlerBase,
  };
}

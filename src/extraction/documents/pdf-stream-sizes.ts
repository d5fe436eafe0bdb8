import { constants, inflateSync } from 'node:zlib';

export interface OversizedStream {
  /** Byte offset of the stream's data in the file. */
  offset: number;
  /** At least this many bytes once inflated (inflating stopped there). */
  inflatedBytes: number;
}

const streamKeyword = Buffer.from('stream');
const endKeyword = Buffer.from('endstream');
/** How far before `stream` its dictionary may start. */
const maxDictionaryBytes = 4096;

/**
 * The first FlateDecode stream of a PDF that inflates to more than `maxBytes`, found before PDF.js
 * inflates anything: PDF.js inflates a content stream whole into one growing buffer and then
 * parses it (a 1.4 MB file whose stream inflates to 400 MB held 2.9 GB for 85 s). Each stream is
 * inflated here with zlib's output cap, so the check costs at most `maxBytes` per stream and stops
 * at the first one over it. Images are skipped (text extraction never decodes them), and so is a
 * stream that does not inflate (encrypted, damaged): PDF.js decides about those, under the job's
 * deadline and memory cap.
 */
export function findOversizedStream(bytes: Uint8Array, maxBytes: number): OversizedStream | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = buffer.indexOf(streamKeyword); at >= 0; at = buffer.indexOf(streamKeyword, at + 1)) {
    const start = dataStart(buffer, at);
    if (start === undefined) continue;
    const dictionary = buffer.toString('latin1', Math.max(0, at - maxDictionaryBytes), at);
    const end = buffer.indexOf(endKeyword, start);
    if (isFlateText(dictionary)) {
      const inflated = inflatedSize(buffer.subarray(start, end < 0 ? buffer.length : end), maxBytes);
      if (inflated > maxBytes) return { offset: start, inflatedBytes: inflated };
    }
    // The data may hold the word "stream" by chance: go on after it.
    if (end < 0) break;
    at = end + endKeyword.length;
  }
  return undefined;
}

/** Where the data of a `stream` keyword starts, when it is one (not `endstream`, followed by EOL). */
function dataStart(buffer: Buffer, at: number): number | undefined {
  if (at > 0 && buffer[at - 1] === 0x64) return undefined; // "endstream"
  const next = at + streamKeyword.length;
  if (buffer[next] === 0x0d && buffer[next + 1] === 0x0a) return next + 2;
  if (buffer[next] === 0x0a || buffer[next] === 0x0d) return next + 1;
  return undefined;
}

/** The stream's own dictionary (after the last `obj`) names FlateDecode first and is no image. */
function isFlateText(before: string): boolean {
  const dictionary = before.slice(before.lastIndexOf('obj') + 1);
  if (/\/Subtype\s*\/Image\b/.test(dictionary)) return false;
  return /\/Filter\s*(?:\[\s*)?\/(?:FlateDecode|Fl)\b/.test(dictionary);
}

/** Inflated bytes, up to just past `maxBytes`; 0 when the data does not inflate. */
function inflatedSize(data: Buffer, maxBytes: number): number {
  try {
    // SYNC_FLUSH: a stream cut short still counts what it inflated to.
    return inflateSync(data, { maxOutputLength: maxBytes + 1, finishFlush: constants.Z_SYNC_FLUSH }).length;
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? maxBytes + 1 : 0;
  }
}

export interface ZipEntry {
  name: string;
  /** As the central directory declares it; 0xffffffff means a ZIP64 size (over 4 GiB, or unknown). */
  uncompressedSize: number;
  compressedSize: number;
}

const endSignature = 0x06054b50;
const entrySignature = 0x02014b50;
const endRecordBytes = 22;
const maxCommentBytes = 0xffff;

/**
 * The entries a ZIP archive's central directory lists, with their declared sizes, read without
 * inflating anything: a DOCX is a ZIP, and what its parts inflate to is known before any of them
 * is. Throws when the bytes are not a ZIP archive.
 */
export function readZipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(view);
  if (end === undefined) throw new Error('not a ZIP archive (no end of central directory)');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries: ZipEntry[] = [];
  const decoder = new TextDecoder();
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== entrySignature) {
      throw new Error('not a ZIP archive (damaged central directory)');
    }
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      compressedSize: view.getUint32(at + 20, true),
      uncompressedSize: view.getUint32(at + 24, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The end of central directory record: the last one, within the comment's reach of the end. */
function findEndRecord(view: DataView): number | undefined {
  const lowest = Math.max(0, view.byteLength - endRecordBytes - maxCommentBytes);
  for (let at = view.byteLength - endRecordBytes; at >= lowest; at--) {
    if (view.getUint32(at, true) === endSignature) return at;
  }
  return undefined;
}

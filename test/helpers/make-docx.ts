import { type DeflatedParts, deflateParts } from './deflate-parts.js';

export interface ZipFile {
  name: string;
  data: DeflatedParts;
}

export interface MakeDocxOptions {
  /** One <w:p> each. */
  paragraphs: string[];
  /** Replaces word/document.xml (a decompression bomb, say); default the paragraphs' document. */
  documentXml?: DeflatedParts;
}

const documentHead =
  '<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
export const docxDocumentParts = { head: documentHead, tail: '</w:body></w:document>' };

/** A minimal valid DOCX (content types, relationships, document), so tests ship no binary file. */
export function makeDocx(options: MakeDocxOptions): Uint8Array {
  const body = options.paragraphs.map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`).join('');
  const file = (name: string, text: string): ZipFile => ({
    name,
    data: deflateParts([{ text }], { crc32: true }),
  });
  return makeZip([
    file(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    file(
      '_rels/.rels',
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    {
      name: 'word/document.xml',
      data:
        options.documentXml ??
        deflateParts([{ text: `${documentHead}${body}${docxDocumentParts.tail}` }], { crc32: true }),
    },
  ]);
}

/**
 * A ZIP archive of deflated files: local headers, data, central directory, end record (no ZIP64,
 * so sizes stay under 4 GiB).
 */
export function makeZip(files: readonly ZipFile[]): Uint8Array {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of files) {
    const nameBytes = Buffer.from(name, 'utf8');
    const fields = (header: Buffer, at: number) => {
      header.writeUInt16LE(20, at); // version needed
      header.writeUInt16LE(0, at + 2); // flags
      header.writeUInt16LE(8, at + 4); // deflate
      header.writeUInt32LE(0, at + 6); // time and date
      header.writeUInt32LE(data.crc32, at + 10);
      header.writeUInt32LE(data.raw.length, at + 14);
      header.writeUInt32LE(data.size, at + 18);
      header.writeUInt16LE(nameBytes.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields(local, 4);
    chunks.push(local, nameBytes, Buffer.from(data.raw));
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4); // version made by
    fields(entry, 6);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, nameBytes);
    offset += local.length + nameBytes.length + data.raw.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...chunks, directory, end]));
}

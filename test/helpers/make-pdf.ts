export interface MakePdfOptions {
  /** One entry per page; each string is one line of text (ASCII). */
  pages: string[][];
  title?: string;
  author?: string;
  /** PDF date string, e.g. D:20240315120000Z */
  creationDate?: string;
}

/**
 * A small, valid PDF (Helvetica text, correct xref offsets), so tests can serve a real PDF without
 * shipping a binary file.
 */
export function makePdf(options: MakePdfOptions): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pagesId = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const pageIds = options.pages.map((lines) => {
    const stream = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((line) => `(${escapePdf(line)}) Tj T*`).join(' ')} ET`;
    const content = add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    return add(
      `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Resources << /Font << /F1 ${font} 0 R >> >> >>`,
    );
  });
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] =
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  const infoFields = [
    options.title ? `/Title (${escapePdf(options.title)})` : '',
    options.author ? `/Author (${escapePdf(options.author)})` : '',
    options.creationDate ? `/CreationDate (${options.creationDate})` : '',
  ].join(' ');
  const info = add(`<< ${infoFields} >>`);
  return writePdfObjects(objects, { root: catalog, info });
}

/** An object's body: text, or text and bytes in a row (a stream's binary data). */
export type PdfObject = string | ReadonlyArray<string | Uint8Array>;

/**
 * A PDF file of these objects, numbered from 1 in order, with a correct cross-reference table;
 * the catalog is object `root` (default 1).
 */
export function writePdfObjects(
  objects: readonly PdfObject[],
  trailer: { root?: number; info?: number } = {},
): Uint8Array {
  const chunks: Buffer[] = [];
  let length = 0;
  const write = (part: string | Uint8Array) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part);
    chunks.push(bytes);
    length += bytes.length;
  };
  write('%PDF-1.4\n');
  const offsets = objects.map((body, index) => {
    const offset = length;
    write(`${index + 1} 0 obj\n`);
    for (const part of typeof body === 'string' ? [body] : body) write(part);
    write('\nendobj\n');
    return offset;
  });
  const xref = length;
  write(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  write(offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join(''));
  const info = trailer.info ? ` /Info ${trailer.info} 0 R` : '';
  write(
    `trailer\n<< /Size ${objects.length + 1} /Root ${trailer.root ?? 1} 0 R${info} >>\nstartxref\n${xref}\n%%EOF\n`,
  );
  return new Uint8Array(Buffer.concat(chunks));
}

function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (char) => `\\${char}`);
}

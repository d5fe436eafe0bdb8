import { deflateParts } from './deflate-parts.js';
import { docxDocumentParts, makeDocx } from './make-docx.js';
import { makePdf, writePdfObjects } from './make-pdf.js';

/**
 * Hostile pages and documents, made in memory in well under a second each (nothing is shipped or
 * downloaded): what the reader and `kb add` must survive without freezing the process that asked.
 * The default sizes are the security probe's: a 25,000-cell table, 200,000 nested divs, a
 * 30,000-page PDF, a content stream that inflates to ~400 MB, a DOCX that inflates to ~1 GB.
 */
export const hostileDocuments = {
  /** One table of `cells` cells in 10 columns, about 10 bytes a cell. */
  bigTable(cells = 25_000): string {
    const columns = 10;
    const rows: string[] = [];
    for (let row = 0; row * columns < cells; row++) {
      const tag = row === 0 ? 'th' : 'td';
      const count = Math.min(columns, cells - row * columns);
      const cellsHtml = Array.from({ length: count }, (_, column) => `<${tag}>r${row}c${column}</${tag}>`);
      rows.push(`<tr>${cellsHtml.join('')}</tr>`);
    }
    return htmlPage('Big table', `<p>A page with a very large table.</p><table>${rows.join('')}</table>`);
  },
  /** `depth` nested divs around one sentence. */
  nestedDivs(depth = 200_000): string {
    return htmlPage('Deep page', `${'<div>'.repeat(depth)}Deep inside.${'</div>'.repeat(depth)}`);
  },
  /** A valid PDF of `pages` pages, each with its own line of text (4.8 MB for 30,000). */
  manyPagesPdf(pages = 30_000): Uint8Array {
    // Objects 1-3: catalog, page tree (resources and size inherited by every page), font; then a
    // content stream and a page per page.
    const kids = Array.from({ length: pages }, (_, index) => `${5 + index * 2} 0 R`).join(' ');
    const objects: string[] = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [${kids}] /Count ${pages} /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> >>`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ];
    for (let index = 0; index < pages; index++) {
      const text = `BT /F1 9 Tf 72 720 Td (Page ${index + 1}) Tj ET`;
      objects.push(`<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
      objects.push(`<< /Type /Page /Parent 2 0 R /Contents ${objects.length} 0 R >>`);
    }
    return writePdfObjects(objects);
  },
  /** A one-page PDF whose content stream inflates to about `megabytes` MB (a 1.6 MB file for 400). */
  inflatingPdf(megabytes = 400): Uint8Array {
    const line = 'BT /F1 12 Tf 72 720 Td (All work and no play makes a dull page.) Tj ET\n';
    const stream = deflateParts([{ text: line.repeat(Math.ceil(2 ** 20 / line.length)), times: megabytes }]);
    return writePdfObjects([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
      [`<< /Length ${stream.zlib.length} /Filter /FlateDecode >>\nstream\n`, stream.zlib, '\nendstream'],
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ]);
  },
  /** A DOCX whose word/document.xml inflates to about `megabytes` MB (a 1.3 MB file for 1,000). */
  docxZipBomb(megabytes = 1000): Uint8Array {
    const paragraph = '<w:p><w:r><w:t>All work and no play makes a dull document.</w:t></w:r></w:p>';
    const documentXml = deflateParts(
      [
        { text: docxDocumentParts.head },
        { text: paragraph.repeat(Math.ceil(2 ** 20 / paragraph.length)), times: megabytes },
        { text: docxDocumentParts.tail },
      ],
      { crc32: true },
    );
    return makeDocx({ paragraphs: [], documentXml });
  },
  /** The first half of a valid PDF. */
  truncatedPdf(): Uint8Array {
    const whole = makePdf({ pages: [['A PDF cut in half.'], ['Its second page.']] });
    return whole.subarray(0, Math.floor(whole.length / 2));
  },
  /** A PDF whose page tree lists itself among its kids, and whose page's contents are the tree. */
  selfReferencingPdf(): Uint8Array {
    return writePdfObjects([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 2 0 R >>',
    ]);
  },
  /** The PDF signature followed by 64 KB of noise. */
  garbagePdf(): Uint8Array {
    const bytes = new Uint8Array(64 * 1024);
    let seed = 7;
    for (let index = 0; index < bytes.length; index++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      bytes[index] = seed >>> 24;
    }
    bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
    return bytes;
  },
};

function htmlPage(title: string, body: string): string {
  return `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}

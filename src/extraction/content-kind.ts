import type { FetchedBody } from '../platform/http/fetch-page.js';
import { docxType } from './content-types.js';
import { isHtmlType } from './decode-body.js';

/** The parsers an extraction process loads on first use: each a few hundred milliseconds of modules. */
export type ParserKind = 'html' | 'pdf' | 'docx';

const pdfSignature = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** The body's content type: the declared one, sniffed (HTML tags, the PDF signature) when it says nothing useful. */
export function sniffContentType(fetched: Pick<FetchedBody, 'contentType' | 'bytes'>): string {
  const declared = fetched.contentType.split(';')[0]!.trim().toLowerCase();
  if (declared && declared !== 'application/octet-stream' && declared !== 'binary/octet-stream') {
    return declared === 'text/x-markdown' ? 'text/markdown' : declared;
  }
  if (pdfSignature.every((byte, index) => fetched.bytes[index] === byte)) return 'application/pdf';
  const head = new TextDecoder().decode(fetched.bytes.subarray(0, 512)).trimStart();
  if (head.startsWith('<')) return 'text/html';
  if (/^[{[]/.test(head)) return 'application/json';
  return declared ? 'application/octet-stream' : 'text/plain';
}

/** The parser a body needs; none for text, markdown and JSON (read as they are). */
export function parserFor(fetched: Pick<FetchedBody, 'contentType' | 'bytes'>): ParserKind | undefined {
  const contentType = sniffContentType(fetched);
  if (contentType === 'application/pdf') return 'pdf';
  if (contentType === docxType) return 'docx';
  return isHtmlType(contentType) ? 'html' : undefined;
}

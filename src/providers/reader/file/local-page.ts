import { extname } from 'node:path';
import { docxType } from '../../../extraction/content-types.js';
import type { ContentExtractor } from '../../../extraction/worker/content-extractor.js';
import type { Page } from '../../spec/page-reader.js';

const typesByExtension: Readonly<Record<string, string>> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xhtml': 'application/xhtml+xml',
  '.pdf': 'application/pdf',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.docx': docxType,
};

/** The content type a local file's extension says; '' lets the reader sniff the bytes. */
export function contentTypeForPath(path: string): string {
  return typesByExtension[extname(path).toLowerCase()] ?? '';
}

export interface LocalBytes {
  /** What the caller asked for, as they wrote it. */
  requestedUrl: string;
  /** The source's canonical URL (file:///...), or a label such as "stdin:". */
  url: string;
  bytes: Uint8Array;
  /** '' when unknown: HTML tags, the PDF signature and JSON are sniffed, anything else is text. */
  contentType: string;
  /** HTTP date of the file's last change, when known. */
  lastModified?: string;
  /** Only the first bytes were read (the size cap). */
  truncated?: boolean;
  providerId: string;
}

/**
 * Local bytes read like a fetched page, by content type, by the same extraction as the builtin
 * reader (HTML, PDF, DOCX, text, markdown, JSON), in `extractor` (default: the default settings'
 * extraction pool). What the limits left out is said at the end of the text.
 */
export async function localBytesToPage(local: LocalBytes, extractor?: ContentExtractor): Promise<Page> {
  const { defaultExtractor } = await import('../../../extraction/worker/shared-extraction-pool.js');
  const { pageWithNotes } = await import('../../../extraction/worker/content-extractor.js');
  const content = await (extractor ?? defaultExtractor()).extract({
    requestedUrl: local.requestedUrl,
    providerId: local.providerId,
    fetched: {
      url: local.url,
      status: 200,
      contentType: local.contentType,
      bytes: local.bytes,
      truncated: local.truncated ?? false,
      lastModified: local.lastModified,
    },
  });
  return pageWithNotes(content);
}

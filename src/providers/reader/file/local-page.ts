import { extname } from 'node:path';
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
  providerId: string;
}

/**
 * Local bytes read like a fetched page, by content type: the same extraction as the builtin reader
 * (HTML, PDF, text, markdown, JSON). Its libraries load on the first call.
 */
export async function localBytesToPage(local: LocalBytes): Promise<Page> {
  const { fetchedToPage } = await import('../builtin/fetched-to-page.js');
  return fetchedToPage(
    local.requestedUrl,
    {
      url: local.url,
      status: 200,
      contentType: local.contentType,
      bytes: local.bytes,
      truncated: false,
      lastModified: local.lastModified,
    },
    local.providerId,
  );
}

import { basename, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../core/errors/index.js';
import { docxType } from '../extraction/content-types.js';
import type { ContentExtractor } from '../extraction/worker/content-extractor.js';
import type { PageReader } from '../providers/spec/page-reader.js';

/** A document's content as the knowledge base keeps it. */
export interface ReadDocument {
  title: string;
  /** Markdown (or plain text); chunks and quotes refer to it. */
  text: string;
  /** Page texts of a PDF; `text` is their join with blank lines. */
  pages?: string[];
  contentType: string;
  /** What was left out (pages past the limit, a cut), each naming its limit. */
  notes?: string[];
}

export const documentTypes: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
  '.docx': docxType,
};

export function isSupportedDocument(path: string): boolean {
  return Object.hasOwn(documentTypes, extname(path).toLowerCase());
}

export interface ReadDocumentFileOptions {
  /** The file's bytes (read by the caller, within its size cap). */
  bytes: Uint8Array;
  /** Only the first bytes of a longer file were read. */
  truncated?: boolean;
  /** Parses the file: the runtime's extraction pool, or the default one. */
  extractor?: ContentExtractor;
  signal?: AbortSignal;
}

/**
 * Reads a local file by its extension, in an extraction process under its limits, as the reader
 * reads a page: markdown and text as they are, HTML through the main content extraction, PDF page by
 * page, DOCX with mammoth (→ HTML → the same markdown conversion).
 */
export async function readDocumentFile(
  path: string,
  options: ReadDocumentFileOptions,
): Promise<ReadDocument> {
  const contentType = documentTypes[extname(path).toLowerCase()];
  if (!contentType) {
    throw new InputError(
      `${path}: unsupported file type (supported: ${Object.keys(documentTypes).join(', ')})`,
      { param: 'paths' },
    );
  }
  const url = pathToFileURL(path).href;
  const fetched = {
    url,
    status: 200,
    contentType,
    bytes: options.bytes,
    truncated: options.truncated ?? false,
  };
  const { defaultExtractor } = await import('../extraction/worker/shared-extraction-pool.js');
  const content = await (options.extractor ?? defaultExtractor()).extract(
    { requestedUrl: url, fetched, providerId: 'kb', sizeLimit: 'maxFileBytes' },
    { signal: options.signal },
  );
  const { page, notes } = content;
  const fallbackTitle = basename(path, extname(path));
  const text = page.markdown.trim();
  if (contentType === 'application/pdf') {
    const pages = content.pages ?? [];
    return {
      title: pdfTitle(content.declaredTitle) ?? fallbackTitle,
      text: pages.join('\n\n'),
      pages,
      contentType,
      notes,
    };
  }
  // In a plain text file a line starting with # is a comment (a shell's, a config's), not a heading.
  const title =
    contentType === 'text/html'
      ? page.title || fallbackTitle
      : contentType === 'text/plain'
        ? fallbackTitle
        : (markdownTitle(text) ?? fallbackTitle);
  return { title, text: text || page.text.trim(), contentType, notes };
}

/** A URL through the configured reader (builtin or Jina), so the same safety rules apply. */
export async function readDocumentUrl(
  url: string,
  reader: PageReader,
  signal?: AbortSignal,
): Promise<ReadDocument> {
  const page = await reader.read(url, { signal });
  return {
    title: page.title || url,
    text: (page.markdown || page.text).trim(),
    contentType: page.contentType,
  };
}

/**
 * A PDF's declared title unless it names no document: Chromium prints a page without a <title>
 * as "about:blank" or its URL, and some writers leave "Untitled". The file name says more.
 */
function pdfTitle(declared: string | undefined): string | undefined {
  const title = declared?.trim();
  if (!title || /^(about:|data:|blob:|file:|https?:\/\/)|^untitled(\s+document)?$/i.test(title))
    return undefined;
  return title;
}

function markdownTitle(text: string): string | undefined {
  const match = /^#\s+(.+)$/m.exec(text.slice(0, 2000));
  if (match) return match[1]!.trim();
  return undefined;
}

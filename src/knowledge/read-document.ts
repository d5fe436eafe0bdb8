import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../errors/index.js';
import type { PageReader } from '../providers/spec/page-reader.js';

/** A document's content as the knowledge base keeps it. */
export interface ReadDocument {
  title: string;
  /** Markdown (or plain text); chunks and quotes refer to it. */
  text: string;
  /** Page texts of a PDF; `text` is their join with blank lines. */
  pages?: string[];
  contentType: string;
}

export const documentTypes: Readonly<Record<string, string>> = {
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.text': 'text/plain',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export function isSupportedDocument(path: string): boolean {
  return Object.hasOwn(documentTypes, extname(path).toLowerCase());
}

/**
 * Reads a local file by its extension: markdown and text as they are, HTML through the builtin
 * reader's extraction (main content → markdown), PDF with unpdf page by page, DOCX with mammoth
 * (→ HTML → the same markdown conversion). The parsers load on the first file that needs them.
 */
export async function readDocumentFile(path: string, bytes?: Uint8Array): Promise<ReadDocument> {
  const contentType = documentTypes[extname(path).toLowerCase()];
  if (!contentType) {
    throw new InputError(
      `${path}: unsupported file type (supported: ${Object.keys(documentTypes).join(', ')})`,
      { param: 'paths' },
    );
  }
  const data = bytes ?? (await readFile(path));
  const fallbackTitle = basename(path, extname(path));
  if (contentType === 'application/pdf') {
    const { readPdf } = await import('../providers/reader/builtin/read-pdf.js');
    const pdf = await readPdf(data, { providerId: 'kb', url: path });
    return { title: pdf.title ?? fallbackTitle, text: pdf.pages.join('\n\n'), pages: pdf.pages, contentType };
  }
  if (contentType === 'text/html') {
    const html = new TextDecoder().decode(data);
    return { ...(await htmlDocument(html, pathToFileURL(path).href, fallbackTitle)), contentType };
  }
  if (contentType.includes('wordprocessingml')) {
    const mammoth = (await import('mammoth')).default;
    const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(data) });
    const { htmlToMarkdown } = await import('../providers/reader/builtin/html-to-markdown.js');
    const text = htmlToMarkdown(value).trim();
    return { title: markdownTitle(text) ?? fallbackTitle, text, contentType };
  }
  const text = new TextDecoder().decode(data).replace(/^\uFEFF/, '');
  // In a plain text file a line starting with # is a comment (a shell's, a config's), not a heading.
  const title = contentType === 'text/markdown' ? markdownTitle(text) : undefined;
  return { title: title ?? fallbackTitle, text, contentType };
}

async function htmlDocument(html: string, url: string, fallbackTitle: string) {
  const { extractHtmlPage } = await import('../providers/reader/builtin/extract-html-page.js');
  const page = extractHtmlPage(html, url);
  return { title: page.title || fallbackTitle, text: (page.markdown || page.text).trim() };
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

function markdownTitle(text: string): string | undefined {
  const match = /^#\s+(.+)$/m.exec(text.slice(0, 2000));
  if (match) return match[1]!.trim();
  return undefined;
}

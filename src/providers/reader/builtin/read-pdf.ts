import { ProviderError } from '../../../errors/index.js';

export interface PdfContent {
  title?: string;
  byline?: string;
  /** Pages separated by a blank line. */
  text: string;
  /** Each page's text (trimmed; empty pages kept so page numbers hold), for citations by page. */
  pages: string[];
  publishedAt?: string;
  modifiedAt?: string;
}

/**
 * The text of a PDF (unpdf: a serverless build of PDF.js), one block per page, with the title,
 * author and dates from its document information. unpdf is loaded on the first PDF, not at start.
 */
export async function readPdf(
  bytes: Uint8Array,
  options: { providerId: string; url: string },
): Promise<PdfContent> {
  const { extractText, getDocumentProxy, getMeta } = await import('unpdf');
  try {
    // PDF.js takes ownership of the buffer it is given; hand it a copy.
    const document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const [{ text }, { info }] = await Promise.all([
        extractText(document, { mergePages: false }),
        getMeta(document, { parseDates: true }),
      ]);
      const pages = text.map((page) => page.trim());
      return {
        title: nonEmpty(info.Title),
        byline: nonEmpty(info.Author),
        text: pages.filter(Boolean).join('\n\n'),
        pages,
        publishedAt: isoDate(info.CreationDate),
        modifiedAt: isoDate(info.ModDate),
      };
    } finally {
      await document.destroy();
    }
  } catch (cause) {
    throw new ProviderError(`${options.url} is not a PDF that can be read: ${(cause as Error).message}`, {
      providerId: options.providerId,
      code: 'page_unreadable',
      cause,
    });
  }
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function isoDate(value: unknown): string | undefined {
  return value instanceof Date && Number.isFinite(value.getTime()) ? value.toISOString() : undefined;
}

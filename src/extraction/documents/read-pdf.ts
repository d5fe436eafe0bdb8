import { ProviderError } from '../../core/errors/index.js';
import { type ContentLimits, formatSize, limitNote, overLimitError } from '../content-limits.js';
import { findOversizedStream } from './pdf-stream-sizes.js';

export interface PdfContent {
  title?: string;
  byline?: string;
  /** Pages separated by a blank line. */
  text: string;
  /** Each page's text (trimmed; empty pages kept so page numbers hold), for citations by page. */
  pages: string[];
  publishedAt?: string;
  modifiedAt?: string;
  /** Said when only the first pages were read. */
  notes: string[];
}

export interface ReadPdfOptions {
  providerId: string;
  url: string;
  limits: Pick<ContentLimits, 'maxPdfPages' | 'maxInflatedBytes'>;
}

/**
 * The text of a PDF (unpdf: a serverless build of PDF.js), one block per page, with the title,
 * author and dates from its document information. Before PDF.js sees it, no stream may inflate
 * past limits.maxInflatedBytes; pages are read one after the other up to limits.maxPdfPages (unpdf's
 * extractText reads all of them at once: a 30,000-page PDF took 4.3 GB). unpdf is loaded on the
 * first PDF, not at start.
 */
export async function readPdf(bytes: Uint8Array, options: ReadPdfOptions): Promise<PdfContent> {
  const { maxInflatedBytes, maxPdfPages } = options.limits;
  const oversized = findOversizedStream(bytes, maxInflatedBytes);
  if (oversized) {
    throw overLimitError(
      `${options.url} is a PDF with a stream that inflates to more than ${formatSize(maxInflatedBytes)}`,
      { providerId: options.providerId, limit: 'maxInflatedBytes' },
    );
  }
  const { getDocumentProxy, getMeta } = await import('unpdf');
  try {
    // PDF.js takes ownership of the buffer it is given; hand it a copy.
    const document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      const { info } = await getMeta(document, { parseDates: true });
      const read = Math.min(document.numPages, maxPdfPages);
      const pages: string[] = [];
      for (let number = 1; number <= read; number++) pages.push((await pageText(document, number)).trim());
      const notes =
        read < document.numPages
          ? [limitNote(`read the first ${read} of ${document.numPages} pages`, 'maxPdfPages')]
          : [];
      return {
        title: nonEmpty(info.Title),
        byline: nonEmpty(info.Author),
        text: pages.filter(Boolean).join('\n\n'),
        pages,
        publishedAt: isoDate(info.CreationDate),
        modifiedAt: isoDate(info.ModDate),
        notes,
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

type PdfDocument = Awaited<ReturnType<typeof import('unpdf')['getDocumentProxy']>>;

/** One page's text as unpdf's extractText writes it; the page's resources are freed after. */
async function pageText(document: PdfDocument, number: number): Promise<string> {
  const page = await document.getPage(number);
  try {
    const content = await page.getTextContent();
    return content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
  } finally {
    page.cleanup();
  }
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function isoDate(value: unknown): string | undefined {
  return value instanceof Date && Number.isFinite(value.getTime()) ? value.toISOString() : undefined;
}

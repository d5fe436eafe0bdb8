import { ProviderError } from '../core/errors/index.js';
import { displayUrl } from '../platform/http/describe-network-error.js';
import type { FetchedBody } from '../platform/http/fetch-page.js';
import { toIsoDate } from '../platform/http/to-iso-date.js';
import { type ParserKind, sniffContentType } from './content-kind.js';
import {
  type ContentLimits,
  charsCutNote,
  cutText,
  defaultContentLimits,
  formatSize,
  type LimitName,
  limitNote,
  overLimitError,
} from './content-limits.js';
import { docxType } from './content-types.js';
import { decodeBody, isHtmlType } from './decode-body.js';
import { assertNestingDepth } from './html/nesting-limit.js';
import { markdownToText } from './markdown-to-text.js';
import type { Page } from './page.js';

/**
 * Each parser's modules, imported on first use: an extraction process starts without them (a
 * process that only reads HTML never loads PDF.js or mammoth), and its parent asks it to load one
 * (loadParser) before the first job that needs it, so loading is not counted in a job's deadline.
 */
const parsers = {
  html: async () => {
    htmlParser ??= await import('./html/extract-html-page.js');
    return htmlParser;
  },
  pdf: async () => {
    const [module] = await Promise.all([import('./documents/read-pdf.js'), import('unpdf')]);
    return module;
  },
  docx: async () => {
    const [module] = await Promise.all([import('./documents/read-docx.js'), import('mammoth')]);
    return module;
  },
} satisfies Record<ParserKind, () => Promise<unknown>>;

/** The HTML parser once loaded: what the synchronous read (fetchedToPageSync) needs. */
let htmlParser: typeof import('./html/extract-html-page.js') | undefined;

/** Loads a parser's modules ahead of its first page (Node keeps them: later imports are free). */
export async function loadParser(kind: ParserKind): Promise<void> {
  await parsers[kind]();
}

/** A page as read from its bytes, with what the limits left out. */
export interface ExtractedContent {
  page: Page;
  /** A PDF's text page by page (the page's text is their join), for citations by page. */
  pages?: string[];
  /** The title the document declares itself (a PDF's information), when it does. */
  declaredTitle?: string;
  /** Parts not read, each naming its limit ("read the first 300 of 30000 pages (limit: ...)"). */
  notes: string[];
}

export interface FetchedToPageOptions {
  requestedUrl: string;
  fetched: FetchedBody;
  providerId: string;
  limits?: ContentLimits;
  /** The limit that cut `fetched` when it is truncated; default reader.maxBytes. */
  sizeLimit?: LimitName;
}

/**
 * The page as the agent sees it, by content type: HTML is extracted, PDF read page by page, DOCX
 * through mammoth, markdown and plain text pass through, JSON is pretty-printed. A body served
 * without a useful type is sniffed (HTML tags, the PDF signature). Each limit is checked before the
 * work it bounds; text past limits.maxChars is cut. Runs in an extraction process (extraction/).
 */
export async function fetchedToPage(options: FetchedToPageOptions): Promise<ExtractedContent> {
  const { fetched, providerId } = options;
  const limits = options.limits ?? defaultContentLimits;
  const contentType = sniffContentType(fetched);
  if (contentType === 'application/pdf' || contentType === docxType) {
    const read = documentRead(options, contentType, limits);
    // The first part of a PDF or DOCX is no document at all.
    if (fetched.truncated) {
      throw overLimitError(
        `${read.url} is larger than ${formatSize(fetched.bytes.length)}, the most that is read`,
        { providerId, limit: options.sizeLimit ?? 'maxBytes' },
      );
    }
    return contentType === docxType ? docxContent(fetched.bytes, read) : pdfContent(fetched.bytes, read);
  }
  if (isHtmlType(contentType)) await parsers.html();
  return textualContent(options, contentType);
}

/**
 * fetchedToPage for HTML, text and JSON, synchronously, once the HTML parser is loaded
 * (loadParser('html')): one call a caller can bound in time (vm's timeout), as the one-shot
 * `deepsearch read` does for a small page it parses in its own process (small-page-extractor.ts).
 * fetchedToPage ends in the same function, so both give the same page.
 */
export function fetchedToPageSync(options: FetchedToPageOptions): ExtractedContent {
  const contentType = sniffContentType(options.fetched);
  if (contentType === 'application/pdf' || contentType === docxType) {
    throw new Error(`${contentType} is read by fetchedToPage, not fetchedToPageSync`);
  }
  return textualContent(options, contentType);
}

/** HTML (its parser loaded), text and JSON: the page, or why it cannot be read. */
function textualContent(options: FetchedToPageOptions, contentType: string): ExtractedContent {
  const { fetched, providerId } = options;
  const limits = options.limits ?? defaultContentLimits;
  const sizeLimit = options.sizeLimit ?? 'maxBytes';
  const read = documentRead(options, contentType, limits);
  const { url } = read;
  const notes = fetched.truncated
    ? [limitNote(`only the first ${fetched.bytes.length} bytes were read`, sizeLimit)]
    : [];
  const body = decodeBody(fetched.bytes, fetched.contentType);
  if (isHtmlType(contentType)) {
    if (!htmlParser) throw new Error('the HTML parser is not loaded (loadParser)');
    assertNestingDepth(body, read);
    const page = htmlParser.extractHtmlPage(body, fetched.url, { maxTableCells: limits.maxTableCells });
    return cutContent(
      { ...read.base, ...page, modifiedAt: page.modifiedAt ?? read.headerDate },
      limits,
      notes,
    );
  }
  if (contentType.startsWith('text/') || isJsonType(contentType)) {
    const text = isJsonType(contentType) ? prettyJson(body) : body.trim();
    const passThrough = contentType === 'text/plain' || contentType === 'text/markdown';
    const markdown = passThrough ? text : `\`\`\`\n${text}\n\`\`\``;
    const page = {
      ...read.base,
      title: firstLine(text) ?? url,
      markdown,
      text,
      links: [],
      modifiedAt: read.headerDate,
    };
    return cutContent(page, limits, notes);
  }
  throw new ProviderError(`${url} is ${contentType}, which the reader cannot read`, {
    providerId,
    code: 'page_unsupported_type',
  });
}

function documentRead(
  options: FetchedToPageOptions,
  contentType: string,
  limits: ContentLimits,
): DocumentRead {
  const { fetched } = options;
  return {
    base: { requestedUrl: options.requestedUrl, url: fetched.url, contentType },
    url: displayUrl(fetched.url),
    providerId: options.providerId,
    limits,
    headerDate: toIsoDate(fetched.lastModified),
  };
}

/** What every content type's reading shares. */
interface DocumentRead {
  base: Pick<Page, 'requestedUrl' | 'url' | 'contentType'>;
  /** The URL for messages. */
  url: string;
  providerId: string;
  limits: ContentLimits;
  /** Last-Modified, when the document gives no date. */
  headerDate: string | undefined;
}

async function pdfContent(bytes: Uint8Array, read: DocumentRead): Promise<ExtractedContent> {
  const { readPdf } = await parsers.pdf();
  const pdf = await readPdf(bytes, read);
  const cut = cutPages(pdf.pages, read.limits.maxChars);
  const text = cut.pages.filter(Boolean).join('\n\n');
  const page: Page = {
    ...read.base,
    title: pdf.title ?? firstLine(text) ?? read.url,
    markdown: text,
    text,
    links: [],
    byline: pdf.byline,
    publishedAt: pdf.publishedAt,
    modifiedAt: pdf.modifiedAt ?? read.headerDate,
  };
  return { page, pages: cut.pages, declaredTitle: pdf.title, notes: [...pdf.notes, ...cut.notes] };
}

async function docxContent(bytes: Uint8Array, read: DocumentRead): Promise<ExtractedContent> {
  const { readDocx } = await parsers.docx();
  const markdown = await readDocx(bytes, read);
  const title = /^#\s+(.+)$/m.exec(markdown.slice(0, 2000))?.[1]?.trim() ?? firstLine(markdown) ?? read.url;
  const page = { ...read.base, title, markdown, text: markdownToText(markdown), links: [] };
  return cutContent(page, read.limits, []);
}

/** The page's markdown and text cut at limits.maxChars, with the note when they were. */
function cutContent(page: Page, limits: ContentLimits, notes: string[]): ExtractedContent {
  const markdown = cutText(page.markdown, limits.maxChars);
  const text = cutText(page.text, limits.maxChars);
  const cut = markdown.note ?? text.note;
  return {
    page: { ...page, markdown: markdown.text, text: text.text },
    notes: cut ? [...notes, cut] : notes,
  };
}

/** Whole pages while they fit in `maxChars` (counting the blank line between them), then a cut one. */
function cutPages(pages: string[], maxChars: number): { pages: string[]; notes: string[] } {
  const total = pages.reduce((sum, page) => sum + page.length + 2, 0);
  if (total - 2 <= maxChars) return { pages, notes: [] };
  const kept: string[] = [];
  let left = maxChars;
  for (const page of pages) {
    if (left <= 0) break;
    kept.push(page.length <= left ? page : cutText(page, left).text);
    left -= page.length + 2;
  }
  return { pages: kept, notes: [charsCutNote(maxChars, total - 2)] };
}
function isJsonType(contentType: string): boolean {
  return contentType === 'application/json' || contentType.endsWith('+json');
}

function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body.trim();
  }
}

function firstLine(text: string): string | undefined {
  const line = text.split('\n').find((candidate) => candidate.trim());
  return line
    ? line
        .replace(/^#+\s*/, '')
        .trim()
        .slice(0, 120)
    : undefined;
}

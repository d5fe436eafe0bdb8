import { ProviderError } from '../core/errors/index.js';

/** What parsing one page or document may cost, checked before the work each one bounds. */
export interface ContentLimits {
  /** PDF pages read; the rest are left out, and the text says so. */
  maxPdfPages: number;
  /** Bytes one PDF stream, or a DOCX's XML parts together, may inflate to. */
  maxInflatedBytes: number;
  /** Elements nested in each other; a deeper page is refused unparsed. */
  maxNestingDepth: number;
  /** Cells of a table above which it is written as plain rows. */
  maxTableCells: number;
  /** Characters of text kept; the cut is marked in the text. */
  maxChars: number;
}

/** The limits alone, from settings that hold them (reader.extraction): what an extraction is given. */
export function contentLimitsOf(settings: ContentLimits): ContentLimits {
  const { maxPdfPages, maxInflatedBytes, maxNestingDepth, maxTableCells, maxChars } = settings;
  return { maxPdfPages, maxInflatedBytes, maxNestingDepth, maxTableCells, maxChars };
}

/** The defaults of reader.extraction (config-schema.ts). */
export const defaultContentLimits: ContentLimits = {
  maxPdfPages: 300,
  maxInflatedBytes: 64 * 1024 * 1024,
  maxNestingDepth: 256,
  maxTableCells: 500,
  maxChars: 1_000_000,
};

/** Every limit a read can hit, by its name in the config. */
export type LimitName = keyof ContentLimits | 'maxBytes' | 'timeoutSeconds' | 'memoryMb' | 'maxFileBytes';

/**
 * The config path and variable of each limit. The variables are written out rather than looked up
 * in the config's declarations: an extraction process names them in its messages, and loading the
 * whole config schema (zod included) would double its start (content-limits.test.ts checks they
 * match the declarations).
 */
export const limitSettings: Readonly<Record<LimitName, { path: string; variable: string }>> = {
  maxPdfPages: { path: 'reader.extraction.maxPdfPages', variable: 'DEEPSEARCH_MAX_PDF_PAGES' },
  maxInflatedBytes: { path: 'reader.extraction.maxInflatedBytes', variable: 'DEEPSEARCH_MAX_INFLATED_BYTES' },
  maxNestingDepth: { path: 'reader.extraction.maxNestingDepth', variable: 'DEEPSEARCH_MAX_NESTING_DEPTH' },
  maxTableCells: { path: 'reader.extraction.maxTableCells', variable: 'DEEPSEARCH_MAX_TABLE_CELLS' },
  maxChars: { path: 'reader.extraction.maxChars', variable: 'DEEPSEARCH_MAX_EXTRACTED_CHARS' },
  timeoutSeconds: { path: 'reader.extraction.timeoutSeconds', variable: 'DEEPSEARCH_EXTRACT_TIMEOUT' },
  memoryMb: { path: 'reader.extraction.memoryMb', variable: 'DEEPSEARCH_EXTRACT_MEMORY_MB' },
  maxBytes: { path: 'reader.maxBytes', variable: 'DEEPSEARCH_READER_MAX_BYTES' },
  maxFileBytes: { path: 'knowledge.maxFileBytes', variable: 'DEEPSEARCH_KB_MAX_FILE_BYTES' },
};

/** "(limit: DEEPSEARCH_MAX_PDF_PAGES)": what a person changes to lift it. */
export function limitLabel(limit: LimitName): string {
  return `(limit: ${limitSettings[limit].variable})`;
}

/** A note for a document read only in part, naming the limit. */
export function limitNote(text: string, limit: LimitName): string {
  return `${text} ${limitLabel(limit)}`;
}

/** A read refused because of a limit: the message says what and names the limit. */
export function overLimitError(
  message: string,
  options: { providerId: string; limit: LimitName; cause?: unknown },
): ProviderError {
  return new ProviderError(`${message} ${limitLabel(options.limit)}`, {
    providerId: options.providerId,
    code: 'page_over_limit',
    cause: options.cause,
  });
}

/** Text cut at `maxChars` (at a line or word end when one is near), with the note that says so. */
export function cutText(text: string, maxChars: number): { text: string; note?: string } {
  if (text.length <= maxChars) return { text };
  const head = text.slice(0, maxChars);
  const lineEnd = head.lastIndexOf('\n');
  const wordEnd = head.lastIndexOf(' ');
  const end = lineEnd > maxChars * 0.9 ? lineEnd : wordEnd > maxChars * 0.9 ? wordEnd : maxChars;
  return { text: head.slice(0, end).trimEnd(), note: charsCutNote(maxChars, text.length) };
}

export function charsCutNote(maxChars: number, total: number): string {
  return limitNote(
    `cut at ${maxChars.toLocaleString('en')} of ${total.toLocaleString('en')} characters`,
    'maxChars',
  );
}

/** "64 MB", "1.5 MB", "12 KB", "800 bytes": sizes in messages. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

import type { SettingSource } from './setting-sources.js';

/** The reader's size cap and the limits of parsing pages and documents (reader.extraction). */
export const extractionSettingSources: readonly SettingSource[] = [
  {
    path: 'reader.maxBytes',
    env: 'DEEPSEARCH_READER_MAX_BYTES',
    flag: 'reader-max-bytes',
    type: 'integer',
    description: 'bytes of a page or file read, after decompression; the rest is cut (default 5242880)',
  },
  {
    path: 'reader.extraction.concurrency',
    env: 'DEEPSEARCH_EXTRACT_CONCURRENCY',
    type: 'integer',
    description: 'processes parsing pages and documents at once; more wait (default 2)',
  },
  {
    path: 'reader.extraction.timeoutSeconds',
    env: 'DEEPSEARCH_EXTRACT_TIMEOUT',
    flag: 'extract-timeout',
    type: 'number',
    description: 'seconds one page or document may take to parse before it is stopped (default 15)',
  },
  {
    path: 'reader.extraction.memoryMb',
    env: 'DEEPSEARCH_EXTRACT_MEMORY_MB',
    flag: 'extract-memory-mb',
    type: 'integer',
    description: 'memory in MB a parsing process may use before its page is stopped (default 1024)',
  },
  {
    path: 'reader.extraction.maxPdfPages',
    env: 'DEEPSEARCH_MAX_PDF_PAGES',
    flag: 'max-pdf-pages',
    type: 'integer',
    description: 'PDF pages read; a longer PDF is read up to here, and says so (default 300)',
  },
  {
    path: 'reader.extraction.maxInflatedBytes',
    env: 'DEEPSEARCH_MAX_INFLATED_BYTES',
    type: 'integer',
    description:
      'bytes one PDF stream or a DOCX may decompress to; more is refused unread (default 67108864)',
  },
  {
    path: 'reader.extraction.maxNestingDepth',
    env: 'DEEPSEARCH_MAX_NESTING_DEPTH',
    type: 'integer',
    description: 'elements nested in each other in a page; a deeper page is refused unparsed (default 256)',
  },
  {
    path: 'reader.extraction.maxTableCells',
    env: 'DEEPSEARCH_MAX_TABLE_CELLS',
    type: 'integer',
    description: 'cells of a table above which it becomes plain rows without column alignment (default 500)',
  },
  {
    path: 'reader.extraction.maxChars',
    env: 'DEEPSEARCH_MAX_EXTRACTED_CHARS',
    type: 'integer',
    description: 'characters kept from one page or document; the cut is marked (default 1000000)',
  },
  {
    path: 'knowledge.maxFileBytes',
    env: 'DEEPSEARCH_KB_MAX_FILE_BYTES',
    type: 'integer',
    description:
      'largest file kb add reads: longer text is cut there, other files refused (default 67108864)',
  },
];

/** The variable that sets a limit, for the message that names it. */
export function limitVariable(path: string): string {
  return extractionSettingSources.find((source) => source.path === path)?.env ?? path;
}

import * as z from 'zod';
import { providerName, sectionDefaults, setting, urlSetting } from './setting.js';

/**
 * How untrusted pages and documents are parsed: in a pool of child processes, each job with a
 * deadline and a memory cap (a job past either gets its process killed and the read fails), and
 * limits checked before the work that they bound. Warnings name the variable of the limit hit.
 */
export const extractionConfigSchema = z
  .object({
    concurrency: setting(z.number().int().min(1).max(16).default(2), {
      env: 'DEEPSEARCH_EXTRACT_CONCURRENCY',
      description: 'processes parsing pages and documents at once; more wait',
    }),
    timeoutSeconds: setting(z.number().positive().max(600).default(15), {
      env: 'DEEPSEARCH_EXTRACT_TIMEOUT',
      flag: 'extract-timeout',
      description: 'seconds one page or document may take to parse before it is stopped',
    }),
    memoryMb: setting(z.number().int().min(128).max(16_384).default(1024), {
      env: 'DEEPSEARCH_EXTRACT_MEMORY_MB',
      flag: 'extract-memory-mb',
      description: 'memory in MB a parsing process may use before its page is stopped',
    }),
    maxPdfPages: setting(z.number().int().min(1).default(300), {
      env: 'DEEPSEARCH_MAX_PDF_PAGES',
      flag: 'max-pdf-pages',
      description: 'PDF pages read; a longer PDF is read up to here, and says so',
    }),
    // Checked before inflating: a DOCX's XML parts count together.
    maxInflatedBytes: setting(
      z
        .number()
        .int()
        .positive()
        .default(64 * 1024 * 1024),
      {
        env: 'DEEPSEARCH_MAX_INFLATED_BYTES',
        description: 'bytes one PDF stream or a DOCX may decompress to; more is refused unread',
      },
    ),
    // Measured before the page is parsed.
    maxNestingDepth: setting(z.number().int().min(16).default(256), {
      env: 'DEEPSEARCH_MAX_NESTING_DEPTH',
      description: 'elements nested in each other in a page; a deeper page is refused unparsed',
    }),
    maxTableCells: setting(z.number().int().min(1).default(500), {
      env: 'DEEPSEARCH_MAX_TABLE_CELLS',
      description: 'cells of a table above which it becomes plain rows without column alignment',
    }),
    maxChars: setting(z.number().int().min(1000).default(1_000_000), {
      env: 'DEEPSEARCH_MAX_EXTRACTED_CHARS',
      description: 'characters kept from one page or document; the cut is marked',
    }),
  })
  .strict();

export const readerConfigSchema = z
  .object({
    provider: setting(providerName.default('auto'), {
      env: 'DEEPSEARCH_READER',
      flag: 'reader',
      description:
        'page reader: auto (builtin, Chromium for pages scripts write), builtin, browser (Chromium) or jina',
    }),
    timeoutSeconds: setting(z.number().positive().default(20), {
      env: 'DEEPSEARCH_READER_TIMEOUT',
      flag: 'reader-timeout',
      description: 'seconds before a page fetch is abandoned',
    }),
    maxBytes: setting(
      z
        .number()
        .int()
        .positive()
        .default(5 * 1024 * 1024),
      {
        env: 'DEEPSEARCH_READER_MAX_BYTES',
        flag: 'reader-max-bytes',
        description: 'bytes of a page or file read, after decompression; the rest is cut',
      },
    ),
    maxRedirects: setting(z.number().int().min(0).max(20).default(5), {
      description: 'redirects followed per page',
    }),
    allowPrivateNetwork: setting(z.boolean().default(false), {
      env: 'DEEPSEARCH_ALLOW_PRIVATE_NETWORK',
      flag: 'allow-private-network',
      description: 'let the reader and search results reach loopback/private addresses',
    }),
    userAgent: setting(z.string().min(1).optional(), {
      description: 'the User-Agent header of page fetches (default: a browser-like one naming deepsearch)',
    }),
    // Files named in the question, on the command line or by a local search provider; never a
    // file: link found on a web page.
    allowFiles: setting(z.boolean().default(false), {
      env: 'DEEPSEARCH_ALLOW_FILES',
      flag: 'allow-files',
      description: 'let the agent read local files named as file:/// URLs in the question',
    }),
    fileRoots: setting(z.array(z.string().min(1)).default([]), {
      env: 'DEEPSEARCH_FILE_ROOTS',
      flag: 'file-roots',
      description: 'with --allow-files: the only folders files may be read from (comma-separated)',
    }),
    // Off by default: pages are read for a person's question.
    respectRobotsTxt: setting(z.boolean().default(false), {
      env: 'DEEPSEARCH_RESPECT_ROBOTS_TXT',
      flag: 'respect-robots-txt',
      description: "skip pages a site's robots.txt disallows for deepsearch",
    }),
    chromiumPath: setting(z.string().min(1).optional(), {
      env: 'DEEPSEARCH_CHROMIUM_PATH',
      flag: 'chromium-path',
      description:
        'Chromium executable for the browser reader and PDF export of reports (default: /usr/bin/chromium if present)',
    }),
    // The key is optional: keyless requests get a lower rate limit.
    jina: z
      .object({
        apiKey: setting(z.string().min(1).optional(), {
          env: 'JINA_API_KEY',
          secret: true,
          description: 'Jina key for --reader jina (optional; raises the rate limit)',
        }),
        baseURL: setting(urlSetting.optional(), { description: 'another Jina Reader endpoint' }),
      })
      .strict()
      .default({}),
    extraction: extractionConfigSchema.default(sectionDefaults(extractionConfigSchema)),
  })
  .strict();

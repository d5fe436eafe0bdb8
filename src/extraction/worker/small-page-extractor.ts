import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AbortedError } from '../../core/errors/index.js';
import { type ParserKind, parserFor } from '../content-kind.js';
import { type ContentLimits, contentLimitsOf } from '../content-limits.js';
import { decodeBody } from '../decode-body.js';
import type { ExtractedContent } from '../fetched-to-page.js';
import { htmlNestingDepth } from '../html/html-nesting-depth.js';
import type { ContentExtractor, ContentInput, ExtractOptions } from './content-extractor.js';
import { extractionFailure, extractionFailureError } from './extraction-failure.js';
import { extractionStats } from './extraction-stats.js';
import { isTimeBudgetExceeded, runWithinTimeBudget } from './time-budget.js';

/** The largest body parsed in the process that asked (HTML, text or JSON; never PDF or DOCX). */
export const smallPageMaxBytes = 32 * 1024;
/**
 * Elements nested deeper than this make a small page suspicious: it goes to an extraction process.
 * Small real pages nest 10 to 30 deep; the hostile ones nest thousands.
 */
export const smallPageMaxNesting = 64;
/** What the parse of a small page may take here; past it the page goes to an extraction process. */
export const smallPageTimeBudgetMs = 1000;

export interface SmallPageExtractorOptions {
  /** The extraction processes: every page that is not small, and a small one past its time budget. */
  pool: ContentExtractor;
  /** The pool's limits (reader.extraction). */
  limits: ContentLimits;
  /** Default smallPageTimeBudgetMs. */
  timeBudgetMs?: number;
}

/**
 * The extractor of the one-shot `deepsearch read` (never of serve, ask or a library caller, whose
 * event loop serves others): a small page is parsed in this process, so a read of one does not
 * wait for an extraction process to start (~0.3 s of a 0.5 s read). Small means HTML, text or JSON
 * of at most smallPageMaxBytes, complete, nested at most smallPageMaxNesting deep; its parse is
 * bounded by a time budget V8 enforces, past which it goes to the pool with the pool's deadline
 * and memory cap. Everything else goes to the pool as before. The parse is the extraction
 * process's own code (its bundle when built), so the page, or the error, is the same.
 */
export function createSmallPageExtractor(options: SmallPageExtractorOptions): ContentExtractor {
  const { pool } = options;
  const limits = contentLimitsOf(options.limits);
  const budgetMs = options.timeBudgetMs ?? smallPageTimeBudgetMs;
  return {
    async extract(input: ContentInput, extractOptions: ExtractOptions = {}): Promise<ExtractedContent> {
      if (!isSmallPage(input)) return pool.extract(input, extractOptions);
      // The parser failing to load here (a broken install) leaves the page to the pool, which says why.
      const extraction = await loadExtraction(parserFor(input.fetched)).catch(() => undefined);
      if (!extraction) return pool.extract(input, extractOptions);
      if (extractOptions.signal?.aborted) throw new AbortedError('the read was cancelled');
      try {
        const content = runWithinTimeBudget(
          () => extraction.fetchedToPageSync({ ...input, limits }),
          budgetMs,
        );
        extractionStats.inline++;
        return content;
      } catch (error) {
        if (isTimeBudgetExceeded(error)) return pool.extract(input, extractOptions);
        throw extractionFailureError(extractionFailure(error, input));
      }
    },
    prepare: (prepareOptions) => pool.prepare?.(prepareOptions) ?? Promise.resolve(),
  };
}

/** Whether a fetched body is small and plain enough to be parsed in the process that fetched it. */
export function isSmallPage(input: Pick<ContentInput, 'fetched'>): boolean {
  const { fetched } = input;
  if (fetched.truncated || fetched.bytes.byteLength > smallPageMaxBytes) return false;
  const parser = parserFor(fetched);
  if (parser === undefined) return true;
  if (parser !== 'html') return false;
  const html = decodeBody(fetched.bytes, fetched.contentType);
  return htmlNestingDepth(html, smallPageMaxNesting) <= smallPageMaxNesting;
}

type Extraction = typeof import('../fetched-to-page.js');
let extraction: Promise<Extraction> | undefined;

/**
 * The extraction code: from the build, the extraction process's bundle (scripts/build-cli.mjs:
 * the HTML parser's packages in one file load in about a third of the time), else the sources.
 */
async function loadExtraction(parser: ParserKind | undefined): Promise<Extraction> {
  const loaded = await extractionModule();
  if (parser) await loaded.loadParser(parser);
  return loaded;
}

function extractionModule(): Promise<Extraction> {
  extraction ??= (async () => {
    const bundled = new URL('./bundle/fetched-to-page.js', import.meta.url);
    if (import.meta.url.endsWith('.js') && existsSync(fileURLToPath(bundled))) {
      return (await import(bundled.href)) as Extraction;
    }
    return import('../fetched-to-page.js');
  })();
  extraction.catch(() => {
    extraction = undefined;
  });
  return extraction;
}

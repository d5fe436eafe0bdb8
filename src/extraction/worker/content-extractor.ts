import type { FetchedBody } from '../../platform/http/fetch-page.js';
import type { ContentLimits, LimitName } from '../content-limits.js';
import type { ExtractedContent } from '../fetched-to-page.js';
import type { Page } from '../page.js';

/** Bytes to read as a page, however they were fetched. */
export interface ContentInput {
  /** The URL asked for. */
  requestedUrl: string;
  fetched: FetchedBody;
  providerId: string;
  /** The limit that cut `fetched` when it is truncated; default reader.maxBytes. */
  sizeLimit?: LimitName;
}

export interface ExtractOptions {
  signal?: AbortSignal;
}

/**
 * Turns fetched bytes into a page (HTML, PDF, DOCX, text, JSON). The runtime's is a pool of child
 * processes (createExtractionPool), so parsing hostile content never blocks the event loop;
 * createInProcessExtractor runs the same code in this process (the benchmark, the child itself).
 */
export interface ContentExtractor {
  extract(input: ContentInput, options?: ExtractOptions): Promise<ExtractedContent>;
  /**
   * Starts what the extractions need (processes, the HTML parser) ahead of them: `processes` of
   * them, default as many as may work at once. Never throws.
   */
  prepare?(options?: { processes?: number }): Promise<void>;
}

/** The in-process extractor: fetchedToPage, loaded on first use. */
export function createInProcessExtractor(limits?: ContentLimits): ContentExtractor {
  return {
    async extract(input) {
      const { fetchedToPage } = await import('../fetched-to-page.js');
      return fetchedToPage({ ...input, limits });
    },
  };
}

/**
 * An HTML document obtained some other way (a browser's rendering, a test) as extractor input: the
 * pool's API takes HTML and its URL and returns the page, whoever fetched it.
 */
export function htmlInput(options: { html: string; url: string; providerId: string }): ContentInput {
  return {
    requestedUrl: options.url,
    providerId: options.providerId,
    fetched: {
      url: options.url,
      status: 200,
      contentType: 'text/html; charset=utf-8',
      bytes: new TextEncoder().encode(options.html),
      truncated: false,
    },
  };
}

/** The page a reader returns: what the limits left out is said at the end of its text. */
export function pageWithNotes(content: ExtractedContent): Page {
  if (content.notes.length === 0) return content.page;
  const said = content.notes.map((note) => `[${note}]`).join('\n');
  const { page } = content;
  return { ...page, markdown: `${page.markdown}\n\n${said}`, text: `${page.text}\n\n${said}` };
}

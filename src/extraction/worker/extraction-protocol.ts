import type { ParserKind } from '../content-kind.js';
import type { ContentLimits } from '../content-limits.js';
import type { ExtractedContent } from '../fetched-to-page.js';
import type { ContentInput } from './content-extractor.js';
import type { ExtractionFailure } from './extraction-failure.js';

/**
 * The messages between a process that reads pages and its extraction process
 * (extraction-main.ts), over an IPC channel with structured-clone serialization (bytes pass as
 * they are). Every request carries an id its reply repeats; one request at a time.
 */
export type ExtractionRequest =
  /** Answered as soon as the process runs: it starts without its parsers (they load on demand). */
  | { type: 'start'; id: number }
  /**
   * Loads a parser's modules, sent before the first job that needs it (and by prepare() for HTML),
   * so loading is not counted in a job's deadline; the process's memory baseline is taken again.
   */
  | { type: 'load'; id: number; parser: ParserKind }
  | { type: 'extract'; id: number; input: ContentInput; limits: ContentLimits }
  /** Sent once the process has been idle a while: collect, and say whether memory came back. */
  | { type: 'tidy'; id: number };

export type ExtractionReply =
  | { type: 'started'; id: number }
  | { type: 'loaded'; id: number }
  /** `retire`: what its jobs left is still held after a collection, so it asks to be replaced. */
  | { type: 'tidied'; id: number; retire: boolean }
  | { type: 'extracted'; id: number; content: ExtractedContent; retire?: boolean }
  /** The read failed the way a page does (unreadable, unsupported, over a limit). */
  | {
      type: 'failed';
      id: number;
      error: ExtractionFailure;
      /** The job left memory the process could not give back: replace it. */
      retire?: boolean;
    };

/** The process's one line on stderr before it exits with an error, for the parent to report. */
export const extractionErrorPrefix = 'extraction process: ';

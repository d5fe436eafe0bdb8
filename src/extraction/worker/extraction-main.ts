import { fetchedToPage, loadParser } from '../fetched-to-page.js';
import { extractionFailure } from './extraction-failure.js';
import {
  type ExtractionReply,
  type ExtractionRequest,
  extractionErrorPrefix,
} from './extraction-protocol.js';

/**
 * An extraction process: a child of a process that reads pages (started by extraction-pool.ts),
 * parsing one page or document at a time, so a hostile one blocks this process and never its
 * parent's event loop. Its parent kills it past the job's deadline or memory cap. It has an empty
 * environment and ends when its parent goes away (its IPC channel closes).
 */

/**
 * The baseline: resident memory at start, plus what each parser's first load holds (so a process
 * that merely loaded PDF.js is not taken for one a page bloated, nor replaced when idle).
 *
 * Resident memory over the baseline that a process may keep; past it, after a collection, it asks
 * to be replaced. Normal pages settle about 60 MB over the start; a 25,000-cell
 * table or a 50-page read of a 30,000-page PDF leaves about 100-130 MB that V8 keeps after collecting.
 */
const retireMarginBytes = 96 * 1024 * 1024;
/**
 * What an idle process may keep over its baseline: once the reads are over, a process still holding
 * more after a collection is replaced by a fresh one (measured: two processes that had read the
 * hostile pages kept about 40 MB each over their start for a minute and more).
 */
const idleMarginBytes = 24 * 1024 * 1024;
let baselineBytes = process.memoryUsage.rss();

process.on('disconnect', () => process.exit(0));
// Requests are handled one at a time in the order they came: the parent may send the next ones
// before this one is answered, and starts each one's deadline when the one before is answered.
let previous: Promise<unknown> = Promise.resolve();
process.on('message', (message: ExtractionRequest) => {
  previous = previous.then(() =>
    handle(message).then(
      (answer) => process.send?.(answer),
      (error: unknown) => {
        process.stderr.write(`${extractionErrorPrefix}${(error as Error)?.message ?? String(error)}\n`);
        process.exit(1);
      },
    ),
  );
});

async function handle(message: ExtractionRequest): Promise<ExtractionReply> {
  if (message.type === 'start') {
    baselineBytes = process.memoryUsage.rss();
    return { type: 'started', id: message.id };
  }
  if (message.type === 'load') {
    // What loading itself holds joins the baseline (not what earlier jobs left).
    collect();
    const before = process.memoryUsage.rss();
    await loadParser(message.parser);
    collect();
    baselineBytes += Math.max(0, process.memoryUsage.rss() - before);
    return { type: 'loaded', id: message.id };
  }
  if (message.type === 'tidy') {
    collect();
    return {
      type: 'tidied',
      id: message.id,
      retire: process.memoryUsage.rss() > baselineBytes + idleMarginBytes,
    };
  }
  const outcome = await extract(message);
  return { ...outcome, ...(grewTooMuch() ? { retire: true } : {}) } as ExtractionReply;
}

async function extract(
  message: Extract<ExtractionRequest, { type: 'extract' }>,
): Promise<Extract<ExtractionReply, { type: 'extracted' | 'failed' }>> {
  try {
    const content = await fetchedToPage({ ...message.input, limits: message.limits });
    return { type: 'extracted', id: message.id, content };
  } catch (error) {
    return { type: 'failed', id: message.id, error: extractionFailure(error, message.input) };
  }
}

/**
 * A large page leaves a large heap behind: collected here (the process runs with --expose-gc), and
 * when the memory still is not given back, the parent replaces this process, so a server's
 * memory returns to where it was after a hostile page.
 */
function grewTooMuch(): boolean {
  if (process.memoryUsage.rss() <= baselineBytes + retireMarginBytes) return false;
  collect();
  return process.memoryUsage.rss() > baselineBytes + retireMarginBytes;
}

function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

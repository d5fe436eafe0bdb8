import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ExtractionConfig } from '../../../config/config-schema.js';
import type { ContentExtractor } from '../../../extraction/worker/content-extractor.js';
import { acquireExtractionPool } from '../../../extraction/worker/shared-extraction-pool.js';
import {
  createSmallPageExtractor,
  smallPageMaxBytes,
} from '../../../extraction/worker/small-page-extractor.js';
import { inputSource } from './read-input.js';

/** Pages read at once; more would only queue behind the network. */
export const readConcurrency = 4;

/**
 * The extractor of `deepsearch read`: small pages parsed in this process (createSmallPageExtractor),
 * the others in the process's extraction pool (the runtime's, same settings). The pool's processes
 * start now, booting while this process loads its runtime and fetches, unless every input is a
 * local file small enough to be parsed here (then none starts unless one turns out to need it).
 * As many processes as inputs read at once: a second one booting beside a single read only takes
 * the CPU it needs.
 */
export function createReadExtractor(
  settings: ExtractionConfig,
  inputs: readonly string[],
  cwd: string,
): ContentExtractor {
  const pool = acquireExtractionPool(settings).extractor;
  const extractor = createSmallPageExtractor({ pool, limits: settings });
  if (!inputs.every((input) => isSmallLocalFile(input, cwd))) {
    void extractor.prepare?.({ processes: Math.min(inputs.length, readConcurrency) });
  }
  return extractor;
}

/** A local file (not stdin, not a URL) of at most smallPageMaxBytes that is no PDF or DOCX by its name. */
function isSmallLocalFile(input: string, cwd: string): boolean {
  const source = inputSource(input, cwd);
  if (!source?.toLowerCase().startsWith('file:') || /\.(pdf|docx)$/i.test(source)) return false;
  try {
    return statSync(fileURLToPath(source)).size <= smallPageMaxBytes;
  } catch {
    return false; // the file reader says what is wrong with it
  }
}

import { readFile } from 'node:fs/promises';
import { InputError } from '../../core/errors/index.js';
import { type DatasetFormat, datasetFormats, type EvalQuestion } from '../eval-types.js';
import { csvHeader, csvLayouts, parseCsvDataset } from './parse-csv-dataset.js';
import { parseHotpotQa, parseJsonLines } from './parse-json-dataset.js';

export interface Dataset {
  format: DatasetFormat;
  questions: EvalQuestion[];
}

/** Reads a benchmark file; its format is told from its content unless `format` forces one. */
export async function readDataset(options: { file: string; format?: DatasetFormat }): Promise<Dataset> {
  let content: string;
  try {
    content = await readFile(options.file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new InputError(`cannot read dataset ${options.file}: ${reason}`, { cause: error });
  }
  const format = options.format ?? detectDatasetFormat(content, options.file);
  const questions = parseDataset(content, { format, file: options.file });
  if (questions.length === 0) throw new InputError(`${options.file} holds no questions`);
  return { format, questions };
}

export function parseDataset(
  content: string,
  options: { format: DatasetFormat; file: string },
): EvalQuestion[] {
  switch (options.format) {
    case 'simpleqa':
    case 'frames':
      return parseCsvDataset(content, { format: options.format, file: options.file });
    case 'hotpotqa':
      return parseHotpotQa(content, options.file);
    case 'browsecomp-plus':
    case 'jsonl':
      return parseJsonLines(content, { format: options.format, file: options.file });
  }
}

/**
 * A JSON list is HotpotQA; JSON lines are BrowseComp-Plus when they carry `query_id`, plain
 * `question, answer` otherwise; anything else is CSV, told apart by its header.
 */
export function detectDatasetFormat(content: string, file: string): DatasetFormat {
  const start = content.replace(/^\uFEFF/, '').trimStart();
  const forced = ` (or force one with --format ${datasetFormats.join('|')})`;
  if (start.startsWith('[')) return 'hotpotqa';
  if (start.startsWith('{')) {
    const firstLine = start.split(/\r?\n/, 1)[0] ?? '';
    return /"query_id"\s*:/.test(firstLine) ? 'browsecomp-plus' : 'jsonl';
  }
  let header: string[];
  try {
    header = csvHeader(start);
  } catch {
    throw new InputError(`cannot tell the format of ${file}: not JSON, and not CSV${forced}`);
  }
  for (const [format, layout] of Object.entries(csvLayouts)) {
    if (header.includes(layout.question) && header.includes(layout.answer)) return format as DatasetFormat;
  }
  throw new InputError(
    `cannot tell the format of ${file}: a CSV header needs problem,answer (SimpleQA) or Prompt,Answer (FRAMES), found ${header.slice(0, 6).join(',')}${forced}`,
  );
}

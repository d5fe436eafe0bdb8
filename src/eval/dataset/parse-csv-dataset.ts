import { parse } from 'csv-parse/sync';
import { InputError } from '../../core/errors/index.js';
import type { EvalQuestion } from '../eval-types.js';

/** The question and answer columns of each CSV benchmark, as its published file names them. */
export const csvLayouts = {
  simpleqa: { question: 'problem', answer: 'answer' },
  frames: { question: 'Prompt', answer: 'Answer' },
} as const;
export type CsvFormat = keyof typeof csvLayouts;

/** The header row alone, to tell the layouts apart. */
export function csvHeader(text: string): string[] {
  const rows = parse(text, { bom: true, to_line: 1, relax_column_count: true }) as string[][];
  return (rows[0] ?? []).map((name) => name.trim());
}

/**
 * SimpleQA (`metadata,problem,answer`) and FRAMES (`id,Prompt,Answer,wikipedia_link_1...`): quoted
 * fields span lines and hold commas, so a real CSV parser reads them. Other columns are ignored.
 */
export function parseCsvDataset(text: string, options: { format: CsvFormat; file: string }): EvalQuestion[] {
  const layout = csvLayouts[options.format];
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { bom: true, columns: true, skip_empty_lines: true, relax_column_count: true });
  } catch (error) {
    throw new InputError(`${options.file} is not valid CSV: ${(error as Error).message}`, { cause: error });
  }
  const header = csvHeader(text);
  for (const column of [layout.question, layout.answer]) {
    if (!header.includes(column))
      throw new InputError(
        `${options.file}: the ${options.format} format needs a "${column}" column (found: ${header.join(', ')})`,
      );
  }
  return rows.map((row, index) => {
    const question = (row[layout.question] ?? '').trim();
    const answer = (row[layout.answer] ?? '').trim();
    if (!question || !answer)
      throw new InputError(`${options.file}: row ${index + 2} has no ${question ? 'answer' : 'question'}`);
    // FRAMES numbers its rows; SimpleQA does not, so its row index (from 0, like FRAMES) is the id.
    return { id: (row.id ?? '').trim() || String(index), question, answer };
  });
}

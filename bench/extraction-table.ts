import { createHash } from 'node:crypto';
import { median, type PageScore, type ScoreSummary, summarise } from './extraction-score.js';
import { countBelow, failedColumns, failedCounts } from './passage-table.js';

/** One extractor's scores by slice key (see slicesOf) and its time per page. */
export interface Run {
  scores: Map<string, PageScore[]>;
  cpuMs: number[];
  wallMs: number[];
}

export type Part = 'tune' | 'held-out';
const parts: Part[] = ['tune', 'held-out'];

/**
 * Half the pages, chosen by a hash of the id, are for tuning the extractor; the other half are
 * only ever read in this table, to see whether a change holds on pages it was not tuned on.
 */
export function partOf(id: string): Part {
  return createHash('sha256').update(`wcxb:${id}`).digest()[0]! % 2 === 0 ? 'tune' : 'held-out';
}

/** Articles with less ground-truth text than this are the short-article slice. */
const shortArticleChars = 3000;
const shortSlice = 'article < 3,000 chars';
const allSlice = 'all (mixed types)';

const newsSlice = 'article, NewsArticle type';

/**
 * The slice keys a page counts in: its part's whole, its page type, short articles, and news
 * articles (the page declares a schema.org NewsArticle type; `pageTypes` as the reader reads them).
 */
export function slicesOf(
  record: { id: string; page_type: string; main_content: string },
  pageTypes: readonly string[],
): string[] {
  const part = partOf(record.id);
  const keys = [allSlice, record.page_type];
  if (record.page_type === 'article' && record.main_content.length < shortArticleChars) keys.push(shortSlice);
  if (record.page_type === 'article' && pageTypes.some((type) => type.endsWith('newsarticle'))) {
    keys.push(newsSlice);
  }
  return keys.map((slice) => `${part}\u0000${slice}`);
}

const format = (value: number) => value.toFixed(3);
const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const signed = (value: number) => (value >= 0 ? '+' : '') + format(value);
const cell = (summary: ScoreSummary) =>
  `${format(summary.f1)} (${format(summary.precision)}/${format(summary.recall)})`;

/** F1 (P/R) of every extractor per part and slice, our snippet shares, and ΔF1 against Readability. */
export function printExtractionTable(runs: Map<string, Run>, names: readonly string[]): void {
  const ours = runs.get('deepsearch')!;
  const hasBefore = runs.has('before');
  console.log(
    row([
      'part',
      'slice',
      'pages',
      ...names.map((name) => `${name} F1 (P/R)`),
      'ours: with kept / without dropped',
      'ΔF1 vs readability',
      ...(hasBefore ? ['ΔF1 vs before'] : []),
      'ours < readability −0.2',
      ...(hasBefore ? ['before < readability −0.2'] : []),
      ...failedColumns(hasBefore),
    ]),
  );
  console.log(row(Array(names.length + 8 + (hasBefore ? 3 : 0)).fill('---')));
  for (const part of parts) {
    const keys = [...ours.scores.keys()].filter((key) => key.startsWith(`${part}\u0000`));
    for (const key of keys.sort(bySlice)) {
      const summaries = new Map(names.map((name) => [name, summarise(runs.get(name)!.scores.get(key)!)]));
      const mine = summaries.get('deepsearch')!;
      const pageF1s = (name: string) => runs.get(name)!.scores.get(key)!.map(pageF1);
      console.log(
        row([
          part,
          key.slice(part.length + 1),
          String(mine.pages),
          ...names.map((name) => cell(summaries.get(name)!)),
          `${format(mine.withKept)} / ${format(mine.withoutDropped)}`,
          signed(mine.f1 - summaries.get('readability')!.f1),
          ...(hasBefore ? [signed(mine.f1 - summaries.get('before')!.f1)] : []),
          String(countBelow(pageF1s('deepsearch'), pageF1s('readability'))),
          ...(hasBefore ? [String(countBelow(pageF1s('before'), pageF1s('readability')))] : []),
          ...failedCounts(pageF1s, hasBefore),
        ]),
      );
    }
  }
  printTimes(runs, names);
}

function pageF1(score: PageScore): { f1: number } {
  const sum = score.precision + score.recall;
  return { f1: sum ? (2 * score.precision * score.recall) / sum : 0 };
}

/** The mixed slice first, then page types, the short-article slice after articles. */
function bySlice(left: string, right: string): number {
  const rank = (key: string) => (key.endsWith(allSlice) ? `0${key}` : `1${key}`);
  return rank(left).localeCompare(rank(right));
}

export function printTimes(runs: Map<string, Pick<Run, 'cpuMs' | 'wallMs'>>, names: readonly string[]): void {
  const mean = (values: readonly number[]) =>
    values.reduce((sum, value) => sum + value, 0) / (values.length || 1);
  const ours = runs.get('deepsearch')!;
  console.log('\nper page (parse included):');
  for (const name of names) {
    const run = runs.get(name)!;
    const ratio = mean(run.cpuMs) ? mean(ours.cpuMs) / mean(run.cpuMs) : 0;
    console.log(
      `  ${name}: CPU mean ${mean(run.cpuMs).toFixed(1)} ms, median ${median(run.cpuMs).toFixed(1)} ms · wall median ${median(run.wallMs).toFixed(1)} ms · deepsearch CPU ÷ this ${ratio.toFixed(2)}`,
    );
  }
}

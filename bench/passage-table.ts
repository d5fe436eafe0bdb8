import { partOf } from './extraction-table.js';
import { type PassageScore, type PassageSummary, summarisePassages } from './passage-score.js';

/** One extractor's passage scores by slice key (part + slice), pages in the same order for every extractor. */
export type PassageRun = Map<string, PassageScore[]>;

const storyTypes = /^(?:\w*newsarticle|blogposting|liveblogposting|report)$/;
const articleTypes = /^(?:\w*article|blogposting|liveblogposting|report)$/;

/** The slice keys of a trafilatura-eval page: its part's whole and its kind by the types it declares. */
export function passageSlicesOf(id: string, pageTypes: readonly string[]): string[] {
  const kind = pageTypes.some((type) => storyTypes.test(type))
    ? 'news story or blog post type'
    : pageTypes.some((type) => articleTypes.test(type))
      ? 'other article type'
      : 'no article type';
  const part = partOf(id);
  return [`${part}\u0000all`, `${part}\u0000${kind}`];
}

const format = (value: number) => value.toFixed(3);
const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const cell = (summary: PassageSummary) =>
  `${format(summary.f1)} (${format(summary.recall)}/${format(summary.precisionSide)}) ${format(summary.perfect)}`;

/** Per-page F1 below this is a failed page: the judged count, which must stay at or under Readability's. */
export const failedPageF1 = 0.8;

/** Pages whose F1 is below `failedPageF1`. */
export function countFailed(scores: readonly { f1: number }[]): number {
  return scores.filter((score) => score.f1 < failedPageF1).length;
}

/** Pages where `mine`'s per-page F1 is more than `margin` below `theirs`. */
export function countBelow(mine: readonly { f1: number }[], theirs: readonly { f1: number }[], margin = 0.2) {
  return mine.filter((score, index) => score.f1 < (theirs[index]?.f1 ?? 0) - margin).length;
}

export function printPassageTable(runs: Map<string, PassageRun>, names: readonly string[]): void {
  console.log(
    '\ntrafilatura-eval: per-page F1 of recall (`with` found) and precision-side (`without`+`comments` absent), then share of perfect pages',
  );
  const hasBefore = runs.has('before');
  console.log(
    row([
      'part',
      'slice',
      'pages',
      ...names.map((name) => `${name} F1 (R/P) perfect`),
      'ours < readability −0.2',
      ...(hasBefore ? ['ours < before −0.2', 'before < readability −0.2'] : []),
      ...failedColumns(hasBefore),
    ]),
  );
  console.log(row(Array(names.length + 6 + (hasBefore ? 3 : 0)).fill('---')));
  const ours = runs.get('deepsearch')!;
  for (const key of [...ours.keys()].sort()) {
    const scores = (name: string) => runs.get(name)!.get(key)!;
    console.log(
      row([
        key.split('\u0000')[0]!,
        key.split('\u0000')[1]!,
        String(scores('deepsearch').length),
        ...names.map((name) => cell(summarisePassages(scores(name)))),
        String(countBelow(scores('deepsearch'), scores('readability'))),
        ...(hasBefore
          ? [
              String(countBelow(scores('deepsearch'), scores('before'))),
              String(countBelow(scores('before'), scores('readability'))),
            ]
          : []),
        ...failedCounts(scores, hasBefore),
      ]),
    );
  }
}

/** The judged columns: pages with F1 < 0.8 for ours (and the before build) and for Readability. */
export function failedColumns(hasBefore: boolean): string[] {
  return ['ours F1<0.8', ...(hasBefore ? ['before F1<0.8'] : []), 'readability F1<0.8'];
}

export function failedCounts(
  scores: (name: string) => readonly { f1: number }[],
  hasBefore: boolean,
): string[] {
  const names = ['deepsearch', ...(hasBefore ? ['before'] : []), 'readability'];
  return names.map((name) => String(countFailed(scores(name))));
}

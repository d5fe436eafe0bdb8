/**
 * The WCXB scoring rule (../shared/eval/README.md): word 4-gram shingles of the lower-cased `\w+`
 * tokens; per page precision |A∩G|/|A| and recall |A∩G|/|G|, an empty extraction scoring 0.
 */
export interface PageScore {
  precision: number;
  recall: number;
  withKept: number;
  withTotal: number;
  withoutDropped: number;
  withoutTotal: number;
}

// Python's \w is Unicode-aware; JavaScript's is ASCII only, so spell it out.
const wordPattern = /[\p{L}\p{N}\p{Mn}\p{Pc}]+/gu;

export function shingles(text: string): Set<string> {
  const tokens = text.toLowerCase().match(wordPattern) ?? [];
  const result = new Set<string>();
  if (tokens.length > 0 && tokens.length < 4) result.add(tokens.join(' '));
  for (let index = 0; index + 4 <= tokens.length; index++) {
    result.add(tokens.slice(index, index + 4).join(' '));
  }
  return result;
}

function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export interface ScoreInput {
  extracted: string;
  truth: Set<string>;
  with: readonly string[];
  without: readonly string[];
}

export function scorePage(input: ScoreInput): PageScore {
  const extracted = shingles(input.extracted);
  let shared = 0;
  for (const shingle of extracted) if (input.truth.has(shingle)) shared++;
  const flat = normaliseSpace(input.extracted);
  const present = (snippet: string) => flat.includes(normaliseSpace(snippet));
  return {
    precision: extracted.size === 0 ? 0 : shared / extracted.size,
    recall: input.truth.size === 0 || extracted.size === 0 ? 0 : shared / input.truth.size,
    withKept: input.with.filter(present).length,
    withTotal: input.with.length,
    withoutDropped: input.without.filter((snippet) => !present(snippet)).length,
    withoutTotal: input.without.length,
  };
}

export interface ScoreSummary {
  pages: number;
  precision: number;
  recall: number;
  f1: number;
  withKept: number;
  withoutDropped: number;
}

/** Averages precision and recall over pages, then F1 of the averages; snippet shares pooled. */
export function summarise(scores: readonly PageScore[]): ScoreSummary {
  const sum = (pick: (score: PageScore) => number) => scores.reduce((total, score) => total + pick(score), 0);
  const pages = scores.length;
  const precision = pages ? sum((score) => score.precision) / pages : 0;
  const recall = pages ? sum((score) => score.recall) / pages : 0;
  const ratio = (part: number, whole: number) => (whole ? part / whole : 0);
  return {
    pages,
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    withKept: ratio(
      sum((score) => score.withKept),
      sum((score) => score.withTotal),
    ),
    withoutDropped: ratio(
      sum((score) => score.withoutDropped),
      sum((score) => score.withoutTotal),
    ),
  };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

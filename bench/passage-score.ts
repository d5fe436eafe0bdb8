/**
 * The trafilatura-eval scoring rule (../shared/eval/README.md): passages, not shingles. Per page,
 * recall is the share of `with` passages found in the extraction, precision-side the share of
 * `without` and `comments` passages absent (after whitespace normalisation and case folding),
 * F1 their harmonic mean; a page is perfect when every `with` is found and none of the others is.
 */
export interface PassageScore {
  recall: number;
  precisionSide: number;
  f1: number;
  perfect: boolean;
}

export interface PassageCase {
  with: readonly string[];
  without: readonly string[];
  comments?: readonly string[];
}

export function foldPassage(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

export function scorePassages(extracted: string, passages: PassageCase): PassageScore {
  const flat = foldPassage(extracted);
  const present = (passage: string) => {
    const folded = foldPassage(passage);
    return folded.length > 0 && flat.includes(folded);
  };
  const boilerplate = [...passages.without, ...(passages.comments ?? [])];
  const found = passages.with.filter(present).length;
  const absent = boilerplate.filter((passage) => !present(passage)).length;
  const recall = passages.with.length ? found / passages.with.length : 1;
  const precisionSide = boilerplate.length ? absent / boilerplate.length : 1;
  return {
    recall,
    precisionSide,
    f1: recall + precisionSide ? (2 * recall * precisionSide) / (recall + precisionSide) : 0,
    perfect: found === passages.with.length && absent === boilerplate.length,
  };
}

export interface PassageSummary {
  pages: number;
  recall: number;
  precisionSide: number;
  /** Mean of the per-page F1. */
  f1: number;
  perfect: number;
}

export function summarisePassages(scores: readonly PassageScore[]): PassageSummary {
  const pages = scores.length;
  const mean = (pick: (score: PassageScore) => number) =>
    pages ? scores.reduce((total, score) => total + pick(score), 0) / pages : 0;
  return {
    pages,
    recall: mean((score) => score.recall),
    precisionSide: mean((score) => score.precisionSide),
    f1: mean((score) => score.f1),
    perfect: mean((score) => (score.perfect ? 1 : 0)),
  };
}

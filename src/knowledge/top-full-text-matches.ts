/** A full-text row: an id and its BM25 score (higher is better). */
export interface ScoredRow {
  id: number;
  score: number;
}

export interface TopFullTextInput {
  /** The query's terms as FTS5 strings with the number of rows each matches; OR-ed. */
  terms: ReadonlyArray<{ phrase: string; rows: number }>;
  /** Rows in the index (BM25's N). */
  indexRows: number;
  limit: number;
  /** Runs an FTS5 MATCH: its best `limit` rows by BM25, ties by id. */
  run: (match: string) => ScoredRow[];
  /** The rare terms first searched alone match at least this share of the index's rows (default 0.2). */
  candidateShare?: number;
  /** Below this many matching rows (summed over terms) the plain query is cheap enough (default 5000). */
  minimumRows?: number;
}

// FTS5's bm25(): k1 = 1.2, b = 0.75. A term adds idf · f(k1+1) / (f + k1(1 − b + b·D/avgdl)),
// which stays below idf · (k1 + 1) whatever its frequency f and the row length D.
const k1 = 1.2;
// The row count used here may differ slightly from FTS5's own; the bound keeps a margin.
const boundMargin = 1.01;

/**
 * The `limit` best rows of an OR of terms by FTS5 BM25, the same rows and scores as the plain OR
 * query, without scoring every row that holds only common terms (MaxScore pruning). Ranking a
 * common term's rows is most of a query's time on a large index, yet those rows rarely make
 * the top: a row with none of the rare terms scores below the sum of the common terms' bounds.
 * So the rows with a rare term are ranked first, with their full scores (rare AND common, then
 * rare NOT common: every phrase counted once, in the plain query's order, so the sums are
 * bit-identical); when the `limit`-th of them beats that bound, no other row can enter. Else
 * the rare part grows to what the bound asks for, or the plain query runs.
 */
export function topFullTextMatches(input: TopFullTextInput): ScoredRow[] {
  const terms = [...input.terms].sort((a, b) => a.rows - b.rows);
  const any = (part: typeof terms) => part.map((term) => term.phrase).join(' OR ');
  const plain = () => input.run(any(terms));
  const totalRows = terms.reduce((sum, term) => sum + term.rows, 0);
  if (terms.length < 2 || totalRows < (input.minimumRows ?? 5000)) return plain();
  // commonBound[i]: above any score of a row holding none of terms[0..i).
  const commonBound = new Array<number>(terms.length + 1).fill(0);
  for (let index = terms.length - 1; index >= 0; index--) {
    const idf = bm25Idf(input.indexRows, terms[index]!.rows);
    commonBound[index] = commonBound[index + 1]! + idf * (k1 + 1) * boundMargin;
  }
  const rowsOf = (count: number) => terms.slice(0, count).reduce((sum, term) => sum + term.rows, 0);
  const budget = input.indexRows * (input.candidateShare ?? 0.2);
  let rare = 1;
  while (rare < terms.length && rowsOf(rare) < budget) rare++;
  while (rare < terms.length) {
    const rarePart = any(terms.slice(0, rare));
    const commonPart = any(terms.slice(rare));
    const best = [
      ...input.run(`(${rarePart}) AND (${commonPart})`),
      ...input.run(`(${rarePart}) NOT (${commonPart})`),
    ]
      .sort((a, b) => b.score - a.score || a.id - b.id)
      .slice(0, input.limit);
    const threshold = best.length === input.limit ? best[input.limit - 1]!.score : Number.NEGATIVE_INFINITY;
    if (threshold > commonBound[rare]!) return best;
    // The threshold found is a floor of the true one: grow the rare part until its bound is below it.
    let next = rare + 1;
    while (next < terms.length && commonBound[next]! >= threshold) next++;
    // Ranking most of the rows twice costs more than ranking them all once.
    if (rowsOf(next) > totalRows / 2) break;
    rare = next;
  }
  return plain();
}

/** FTS5's idf: ln((N − n + 0.5) / (n + 0.5)), at least 1e-6. */
function bm25Idf(indexRows: number, termRows: number): number {
  const idf = Math.log((indexRows - termRows + 0.5) / (termRows + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

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
  /** The rare terms first searched alone match at least this share of the index's rows (default 0.15). */
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
 * So the rows with a rare term are ranked first, with their full scores; when the `limit`-th of
 * them beats that bound, no other row can enter. Else the next terms' rows (without the terms
 * already done) are ranked too, as many terms as the bound asks for, until it holds or every
 * term is done.
 */
export function topFullTextMatches(input: TopFullTextInput): ScoredRow[] {
  const terms = [...input.terms].sort((a, b) => a.rows - b.rows);
  const any = (from: number, to: number) =>
    terms
      .slice(from, to)
      .map((term) => term.phrase)
      .join(' OR ');
  const totalRows = terms.reduce((sum, term) => sum + term.rows, 0);
  if (terms.length < 2 || totalRows < (input.minimumRows ?? 5000)) return input.run(any(0, terms.length));
  // commonBound[i]: above any score of a row holding none of terms[0..i).
  const commonBound = new Array<number>(terms.length + 1).fill(0);
  for (let index = terms.length - 1; index >= 0; index--) {
    const idf = bm25Idf(input.indexRows, terms[index]!.rows);
    commonBound[index] = commonBound[index + 1]! + idf * (k1 + 1) * boundMargin;
  }
  const budget = input.indexRows * (input.candidateShare ?? 0.15);
  let rare = 1;
  for (let rows = terms[0]!.rows; rare < terms.length && rows < budget; rare++) rows += terms[rare]!.rows;
  if (rare === terms.length) return input.run(any(0, terms.length));
  let best: ScoredRow[] = [];
  let done = 0;
  for (;;) {
    const found = newRowQueries(any(0, done), any(done, rare), any(rare, terms.length)).flatMap((match) =>
      input.run(match),
    );
    best = [...best, ...found].sort((a, b) => b.score - a.score || a.id - b.id).slice(0, input.limit);
    if (rare === terms.length) return best;
    const threshold = best.length === input.limit ? best[input.limit - 1]!.score : Number.NEGATIVE_INFINITY;
    if (threshold > commonBound[rare]!) return best;
    // The threshold found is a floor of the true one: take in terms until their bound is below it.
    done = rare;
    rare++;
    while (rare < terms.length && commonBound[rare]! >= threshold) rare++;
  }
}

/**
 * The MATCH expressions for the rows holding a term of `added` and none of `done`, split by
 * whether they hold a term of `common`. Every expression lists the phrases in the plain query's
 * order (done, added, common); `done` repeated after NOT matches nothing in these rows and adds
 * 0 to their score. So each row's BM25 is summed exactly as the plain query sums it.
 */
function newRowQueries(done: string, added: string, common: string): string[] {
  const any = done ? `(${done} OR ${added})` : `(${added})`;
  if (!common) return [done ? `${any} NOT (${done})` : any];
  const without = done ? `${done} OR ${common}` : common;
  return [`${any} AND ((${common})${done ? ` NOT (${done})` : ''})`, `${any} NOT (${without})`];
}

/** FTS5's idf: ln((N − n + 0.5) / (n + 0.5)), at least 1e-6. */
function bm25Idf(indexRows: number, termRows: number): number {
  const idf = Math.log((indexRows - termRows + 0.5) / (termRows + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

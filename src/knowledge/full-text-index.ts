import type { PreparedStatements } from '../platform/storage/statement-cache.js';
import { chunksGenerationKey } from './document-writes.js';
import { topFullTextMatches } from './top-full-text-matches.js';

export interface FullTextOptions {
  limit: number;
  collection?: string;
}

interface RankedIndex {
  table: string;
  rank: string;
  /** Joins the index's rows to their document, only to filter a collection. */
  toDocument: string;
}

// Title and heading weigh more than body text: a name that is a document's title is its topic.
const chunkIndex: RankedIndex = {
  table: 'chunks_fts',
  rank: 'bm25(chunks_fts, 4.0, 2.0, 1.0, 1.0)',
  toDocument: 'JOIN chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.document_id',
};
const summaryIndex: RankedIndex = {
  table: 'summaries_fts',
  rank: 'bm25(summaries_fts, 2.0, 1.0)',
  toDocument: 'JOIN documents d ON d.id = f.rowid',
};

/**
 * The FTS5 side of the knowledge store: chunk and summary searches ranked by BM25 (higher is
 * better), and the per-word row counts that pick a query's informative words and prune its
 * ranking. The counts are remembered until a write (forget(), or another process's write).
 */
export class FullTextIndex {
  private chunkCount: number | undefined;
  private readonly wordRows = new Map<string, number>();
  private dataVersion: number | undefined;
  private chunksGeneration: string | undefined;

  constructor(private readonly statement: PreparedStatements) {}

  /** Chunks for an FTS5 MATCH expression, best first. */
  chunks(match: string, options: FullTextOptions): Array<{ chunkId: number; score: number }> {
    return this.ranked(chunkIndex, match, options).map((row) => ({ chunkId: row.id, score: row.score }));
  }

  /**
   * Chunks holding any of the words, best first: the same rows and scores as chunks() for the
   * words OR-ed, found without ranking every row that holds only common words.
   */
  chunksWithAnyWord(
    words: readonly string[],
    options: FullTextOptions,
  ): Array<{ chunkId: number; score: number }> {
    if (words.length === 0) return [];
    this.checkForOtherWriters();
    const rows = topFullTextMatches({
      terms: words.map((word) => ({ phrase: fullTextPhrase(word), rows: this.rowsWith(word) })),
      indexRows: this.indexRows(),
      limit: options.limit,
      run: (match) => this.ranked(chunkIndex, match, options),
    });
    return rows.map((row) => ({ chunkId: row.id, score: row.score }));
  }

  /** How many chunks match an FTS5 expression (a phrase's rarity), and how many chunks there are. */
  matchCount(match: string): { rows: number; of: number } {
    if (!match) return { rows: 0, of: this.indexRows() };
    this.checkForOtherWriters();
    return { rows: this.countMatches(match), of: this.indexRows() };
  }

  /** Documents whose summary (--analyze) matches, best first. */
  summaries(match: string, options: FullTextOptions): Array<{ documentId: number; score: number }> {
    return this.ranked(summaryIndex, match, options).map((row) => ({ documentId: row.id, score: row.score }));
  }

  /**
   * The query words worth ranking by: a word in more than half of all chunks has a BM25 idf near
   * zero, so it barely moves the order, yet ranking every chunk it matches is most of a query's
   * time on a large base. Such words are dropped unless nothing else is left (then the rarest
   * stay).
   */
  informativeWords(words: readonly string[]): string[] {
    if (words.length <= 1) return [...words];
    this.checkForOtherWriters();
    const frequencies = words.map((word) => ({ word, rows: this.rowsWith(word) }));
    const informative = frequencies.filter((entry) => entry.rows <= this.indexRows() / 2);
    const kept =
      informative.length > 0 ? informative : frequencies.sort((a, b) => a.rows - b.rows).slice(0, 2);
    return kept.map((entry) => entry.word);
  }

  forget(): void {
    this.chunkCount = undefined;
    this.wordRows.clear();
  }

  /**
   * Counts are forgotten when another connection (another deepsearch process) has written chunks.
   * Its writes of other tables (a run's trust profiles share the file) leave them: data_version
   * says the file changed, the chunks' generation (bumped by every chunk write) says whether the
   * chunks did.
   */
  private checkForOtherWriters(): void {
    const version = this.statement('PRAGMA data_version').pluck().get() as number;
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    const generation = this.statement('SELECT value FROM meta WHERE key = ?')
      .pluck()
      .get(chunksGenerationKey);
    const current = String(generation ?? 0);
    if (this.chunksGeneration !== undefined && current !== this.chunksGeneration) this.forget();
    this.chunksGeneration = current;
  }

  private indexRows(): number {
    this.chunkCount ??= (this.statement('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
    return this.chunkCount;
  }

  private rowsWith(word: string): number {
    let rows = this.wordRows.get(word);
    if (rows === undefined) {
      rows = this.countMatches(fullTextPhrase(word));
      this.wordRows.set(word, rows);
    }
    return rows;
  }

  private countMatches(match: string): number {
    const sql = 'SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?';
    return (this.statement(sql).get(match) as { n: number }).n;
  }

  private ranked(
    index: RankedIndex,
    match: string,
    options: FullTextOptions,
  ): Array<{ id: number; score: number }> {
    if (!match) return [];
    const { table, rank } = index;
    // Ties go to the older row, so every way of running a query returns the same list.
    if (!options.collection) {
      return this.statement(
        `SELECT rowid AS id, -${rank} AS score FROM ${table} WHERE ${table} MATCH ? ORDER BY score DESC, id LIMIT ?`,
      ).all(match, options.limit) as Array<{ id: number; score: number }>;
    }
    return this.statement(
      `SELECT f.rowid AS id, -${rank} AS score FROM ${table} f ${index.toDocument} ` +
        `WHERE ${table} MATCH ? AND d.collection = ? ORDER BY score DESC, id LIMIT ?`,
    ).all(match, options.collection, options.limit) as Array<{ id: number; score: number }>;
  }
}

/** A search word as an FTS5 string. */
export function fullTextPhrase(word: string): string {
  return `"${word.replace(/"/g, '')}"`;
}

/** Search words as FTS5 strings, OR-ed: BM25 ranks chunks by how many and how rare. */
export function fullTextQuery(words: readonly string[]): string {
  return words.map(fullTextPhrase).join(' OR ');
}

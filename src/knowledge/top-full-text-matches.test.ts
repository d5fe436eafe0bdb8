import { describe, expect, it } from 'vitest';
import { fullTextPhrase, fullTextQuery } from './full-text-index.js';
import { KnowledgeStore } from './knowledge-store.js';
import { type ScoredRow, topFullTextMatches } from './top-full-text-matches.js';

// A small corpus with Zipf-like words (a few everywhere, most rare), as real text has.
function syntheticStore(chunkCount: number) {
  const store = new KnowledgeStore({ file: ':memory:', vectorBackend: 'exact-scan' });
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const vocabulary = Array.from({ length: 600 }, (_, index) => `w${index.toString(36)}x`);
  const pick = () => vocabulary[Math.floor(vocabulary.length * random() ** 3)]!;
  const sentence = (length: number) => Array.from({ length }, pick).join(' ');
  for (let document = 0; document < chunkCount / 5; document++) {
    const texts = Array.from({ length: 5 }, () => sentence(10 + Math.floor(random() * 60)));
    let offset = 0;
    store.putDocument({
      collection: document % 3 === 0 ? 'other' : 'default',
      source: `/corpus/${document}.txt`,
      title: sentence(3),
      contentType: 'text/plain',
      contentHash: String(document),
      text: texts.join('\n\n'),
      chunks: texts.map((text) => {
        const chunk = { kind: 'text' as const, heading: '', text, start: offset, end: offset + text.length };
        offset += text.length + 2;
        return chunk;
      }),
      vectors: [],
    });
  }
  // Two words of about the same frequency: the first one's rows rarely beat the second's bound.
  const wordPair = (index: number) => vocabulary.slice(20 + 2 * index, 22 + 2 * index);
  return { store, sentence, wordPair };
}

describe('topFullTextMatches', () => {
  const { store, sentence, wordPair } = syntheticStore(1500);
  const database = store.knowledge.database;
  const count = database.prepare('SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH ?');
  const rank = database.prepare(
    'SELECT rowid AS id, -bm25(chunks_fts, 4.0, 2.0, 1.0, 1.0) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score DESC, id LIMIT ?',
  );

  it('returns the rows and scores of the plain OR query while skipping it for most queries', () => {
    let pruned = 0;
    let rounds = 0;
    let exhausted = 0;
    for (let query = 0; query < 80; query++) {
      // The last queries are pairs of words as frequent as each other: the bound seldom holds, both are ranked.
      const words = [...new Set(query < 60 ? sentence(6).split(' ') : wordPair(query - 60))];
      const terms = words.map((word) => ({
        phrase: fullTextPhrase(word),
        rows: (count.get(fullTextPhrase(word)) as { n: number }).n,
      }));
      const matches: string[] = [];
      const run = (match: string) => {
        matches.push(match);
        return rank.all(match, 30) as ScoredRow[];
      };
      const rows = topFullTextMatches({
        terms,
        indexRows: 1500,
        limit: 30,
        run,
        candidateShare: 0.05,
        minimumRows: 0,
      });
      // The plain query with the terms in the order the pruning sums them (rarest first).
      const sorted = [...terms].sort((a, b) => a.rows - b.rows).map((term) => term.phrase);
      expect(rows).toEqual(rank.all(sorted.join(' OR '), 30));
      // Stopped while common terms were left: the last round ranked "rare AND common", "rare NOT common".
      if (matches.at(-2)?.includes(' AND ')) pruned++;
      else if (matches.length > 1) exhausted++;
      if (matches.length > 2) rounds++;
    }
    expect(pruned).toBeGreaterThan(20);
    // Rounds after the first rank only the rows new to them; the total is still exact.
    expect(rounds).toBeGreaterThan(10);
    expect(exhausted).toBeGreaterThan(0);
  });

  it('runs the plain query on a small index', () => {
    const matches: string[] = [];
    topFullTextMatches({
      terms: [
        { phrase: '"a"', rows: 10 },
        { phrase: '"b"', rows: 20 },
      ],
      indexRows: 100,
      limit: 5,
      run: (match) => {
        matches.push(match);
        return [];
      },
    });
    expect(matches).toEqual(['"a" OR "b"']);
  });

  it('is exact within a collection too', () => {
    const inCollection = database.prepare(
      'SELECT f.rowid AS id, -bm25(chunks_fts, 4.0, 2.0, 1.0, 1.0) AS score FROM chunks_fts f ' +
        'JOIN chunks c ON c.id = f.rowid JOIN documents d ON d.id = c.document_id ' +
        "WHERE chunks_fts MATCH ? AND d.collection = 'other' ORDER BY score DESC, id LIMIT 20",
    );
    for (let query = 0; query < 20; query++) {
      const terms = [...new Set(sentence(5).split(' '))].map((word) => ({
        phrase: fullTextPhrase(word),
        rows: (count.get(fullTextPhrase(word)) as { n: number }).n,
      }));
      const run = (match: string) => inCollection.all(match) as ScoredRow[];
      const rows = topFullTextMatches({
        terms,
        indexRows: 1500,
        limit: 20,
        run,
        candidateShare: 0.05,
        minimumRows: 0,
      });
      const sorted = [...terms].sort((a, b) => a.rows - b.rows).map((term) => term.phrase);
      expect(rows).toEqual(run(sorted.join(' OR ')));
    }
  });

  it('the store ranks words as the plain query does', () => {
    const words = [...new Set(sentence(5).split(' '))];
    const options = { limit: 20, collection: 'default' };
    const plain = store.fullText(fullTextQuery(words), options);
    const found = store.fullTextAnyWord(words, options);
    expect(found.map((row) => row.chunkId)).toEqual(plain.map((row) => row.chunkId));
    expect(found.length).toBeGreaterThan(0);
  });
});

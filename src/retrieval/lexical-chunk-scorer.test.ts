import { describe, expect, it } from 'vitest';
import { scoreBm25 } from './bm25.js';
import { chunkText } from './chunk-text.js';
import { createLexicalChunkScorer } from './lexical-chunk-scorer.js';

const chunksOf = (parts: string[]) => {
  const text = parts.join('\n');
  return { text, chunks: chunkText(text, Math.max(...parts.map((part) => part.length)) + 1) };
};

describe('createLexicalChunkScorer', () => {
  it('finds inflected forms at word starts, not inside other words', () => {
    const { text, chunks } = chunksOf([
      'The film was directed by Peter Farrelly.',
      'An indirect route through the city.',
      'Nothing relevant here at all today.',
    ]);
    expect(chunks).toHaveLength(3);
    const scores = createLexicalChunkScorer(text, chunks).score('who directs it');
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores[1]).toBe(0);
    expect(scores[2]).toBe(0);
  });

  it('matches numbers as whole words: "15" never finds "150" or "2015"', () => {
    const { text, chunks } = chunksOf([
      'iPhone 150 units sold',
      'iPhone 15 launch event',
      'in 2015 it rained',
    ]);
    const scores = createLexicalChunkScorer(text, chunks).score('iPhone 15');
    expect(scores[1]).toBeGreaterThan(scores[0]!);
    expect(scores[2]).toBe(0);
  });

  it('agrees with tokenised BM25 on the ranking of chunks', () => {
    const parts = [
      'Green Book won Best Picture at the ceremony.',
      'The ceremony took place in February in Los Angeles.',
      'Best Picture nominees included Roma and Black Panther.',
      'The weather that week was mild and dry.',
    ];
    const { text, chunks } = chunksOf(parts);
    const question = 'which film won best picture';
    const fast = Array.from(createLexicalChunkScorer(text, chunks).score(question));
    const reference = scoreBm25(
      question,
      chunks.map((chunk) => chunk.text),
    );
    const order = (scores: number[]) =>
      scores.map((_, index) => index).sort((a, b) => scores[b]! - scores[a]!);
    expect(order(fast)).toEqual(order(reference));
  });

  it('scores CJK text by character bigrams', () => {
    const { text, chunks } = chunksOf(['東京は日本の首都です。', '大阪は大きな都市です。']);
    const scores = createLexicalChunkScorer(text, chunks).score('日本の首都');
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });

  it('prefers distinct question terms together, and the shape of the answer, over the page topic repeated', () => {
    const { text, chunks } = chunksOf([
      'Phineas and Ferb - wiki. Phineas and Ferb is a cartoon.',
      'Phineas and Ferb build things; Phineas and Ferb again, Phineas.',
      'Jeremy Johnson ( voiced by Mitchel Musso ) works at a burger stand.',
      'Jeremy likes music and plays in a band with friends.',
    ]);
    const scores = createLexicalChunkScorer(text, chunks, { topicChars: 30 }).score(
      'who does the voice of jeremy on phineas and ferb',
    );
    expect(scores[2]).toBeGreaterThan(scores[1]!);
    expect(scores[2]).toBeGreaterThan(scores[3]!);
  });
});

describe('createLexicalChunkScorer on reference lists', () => {
  const { text, chunks } = chunksOf([
    'Sibongile Mlambo as Angela Goddard in Lost in Space, a survivor of the attack on the Resolute.',
    '"Lost in Space: who plays Angela in the Netflix remake". Deadline. Retrieved June 26, 2018.',
  ]);

  it('weighs a chunk that reads like a bibliography entry down', () => {
    const question = 'who plays angela in lost in space';
    // The cited title repeats more of the question's words than the cast line does...
    const full = createLexicalChunkScorer(text, chunks, { citationWeight: 1 }).score(question);
    expect(full[1]).toBeGreaterThan(full[0]!);
    // ...yet the cast line, which holds the answer, comes first.
    const scores = createLexicalChunkScorer(text, chunks).score(question);
    expect(scores[1]).toBeGreaterThan(0);
    expect(scores[0]).toBeGreaterThan(scores[1]!);
  });

  it('keeps the full score with citationWeight 1', () => {
    const full = createLexicalChunkScorer(text, chunks, { citationWeight: 1 }).score('who plays angela');
    const reduced = createLexicalChunkScorer(text, chunks).score('who plays angela');
    expect(reduced[1]).toBeCloseTo(full[1]! * 0.1, 10);
  });
});

describe('chunksWith', () => {
  it('finds the chunks holding a term as score() does, also where lower case changes the length', () => {
    // "İ" lower-cases to two code units: the scorer then reads chunk by chunk.
    for (const prefix of ['', 'İstanbul. ']) {
      const text = `${prefix}The director was born in Ghent. Directed films followed. A quiet year.`;
      const at = (needle: string) => text.indexOf(needle);
      const chunks = [
        { start: 0, end: at('Directed'), text: text.slice(0, at('Directed')) },
        { start: at('Directed'), end: at('A quiet'), text: text.slice(at('Directed'), at('A quiet')) },
        { start: at('A quiet'), end: text.length, text: text.slice(at('A quiet')) },
      ];
      const scorer = createLexicalChunkScorer(text, chunks);
      expect(scorer.chunksWith('direct')).toEqual([0, 1]);
      expect(scorer.chunksWith('ghent')).toEqual([0]);
      expect(scorer.chunksWith('zebra')).toEqual([]);
      const scores = scorer.score('direct');
      expect([...scores].map((score) => score > 0)).toEqual([true, true, false]);
    }
  });
});

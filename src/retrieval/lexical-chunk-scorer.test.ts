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

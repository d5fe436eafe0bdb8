import { describe, expect, it } from 'vitest';
import { codeWords, queryTable, scoreCodes, signCode, topIndexes } from './sign-codes.js';

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

/** Σ q_j · (bit_j ? 1 : -1) over the vector's own dimensions, the slow way. */
function bruteScore(query: Float32Array, code: Uint8Array): number {
  let score = 0;
  for (let index = 0; index < query.length; index++) {
    score += (code[index >>> 3]! >> (index & 7)) & 1 ? query[index]! : -query[index]!;
  }
  return score;
}

describe('sign codes', () => {
  it('sets a bit where the unit vector lies above the centre, whatever the vector length', () => {
    const centre = new Float32Array(40).fill(0.1);
    const vector = new Float32Array(40);
    vector[0] = 3; // 3/5 = 0.6 > 0.1
    vector[1] = 0.4; // 0.08 < 0.1
    vector[35] = 4; // 0.8 > 0.1
    const code = signCode(vector, centre);
    expect(code.length).toBe(codeWords(40) * 4);
    expect(code[0]).toBe(0b1);
    expect(code[4]).toBe(0b1000);
    expect(signCode(vector, undefined)[0]).toBe(0b11);
  });

  it('scores a code as the dot product of the query with its ±1 vector, padding included', () => {
    const random = seeded(3);
    const dimensions = 72; // not a multiple of 32: the last word is padded
    const query = Float32Array.from({ length: dimensions }, random);
    const vectors = Array.from({ length: 50 }, () => Float32Array.from({ length: dimensions }, random));
    const words = codeWords(dimensions);
    const codes = new Uint32Array(vectors.length * words);
    const bytes = new Uint8Array(codes.buffer);
    vectors.forEach((vector, index) => {
      bytes.set(signCode(vector, undefined), index * words * 4);
    });
    const scores = new Float32Array(vectors.length);
    scoreCodes({ codes, count: vectors.length, words, table: queryTable(query), scores });
    vectors.forEach((vector, index) => {
      expect(scores[index]).toBeCloseTo(bruteScore(query, signCode(vector, undefined)), 4);
    });
    scoreCodes({
      codes,
      count: vectors.length,
      words,
      table: queryTable(query),
      scores,
      skip: (index) => index % 2 === 1,
    });
    expect(scores[1]).toBe(Number.NEGATIVE_INFINITY);
    expect(scores[2]).toBeCloseTo(bruteScore(query, signCode(vectors[2]!, undefined)), 4);
  });

  it('finds the indexes of the highest scores (any of equal ones), never a skipped one', () => {
    const random = seeded(9);
    const scores = Float32Array.from({ length: 1000 }, () => Math.round(random() * 40));
    scores[5] = Number.NEGATIVE_INFINITY;
    const expected = [...scores.keys()]
      .filter((index) => scores[index]! > Number.NEGATIVE_INFINITY)
      .sort((a, b) => scores[b]! - scores[a]! || a - b)
      .slice(0, 37);
    const found = topIndexes(scores, scores.length, 37);
    expect(found).toHaveLength(37);
    expect(found.map((index) => scores[index]).sort()).toEqual(expected.map((index) => scores[index]).sort());
    expect(new Set(found).size).toBe(37);
    const few = new Float32Array([1, Number.NEGATIVE_INFINITY, 3]);
    expect(topIndexes(few, 3, 10).sort()).toEqual([0, 2]);
    expect(topIndexes(few, 3, 0)).toEqual([]);
  });
});

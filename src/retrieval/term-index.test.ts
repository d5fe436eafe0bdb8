import { describe, expect, it } from 'vitest';
import { scoreDocumentsLexically } from './lexical-chunk-scorer.js';
import { createTermIndex } from './term-index.js';
import { featuresOf } from './url-features.js';

const documents = [
  'The film was directed by a famous director in 1999',
  'A recipe for bread and butter',
  'Directors of the 150 best films',
  'iPhone 15 review',
  '東京の天気予報',
];

describe('createTermIndex', () => {
  it('scores like the chunk scorer: inflections match, numbers match whole', () => {
    const index = createTermIndex();
    const texts = documents.map((text) => index.tokenise(text));
    for (const query of ['who directed the film', 'iPhone 15', 'best films 150', '東京の天気']) {
      const expected = Array.from(scoreDocumentsLexically(query, documents));
      const actual = Array.from(index.score(query, texts));
      for (const [position, score] of actual.entries()) expect(score).toBeCloseTo(expected[position]!, 6);
    }
    expect(Array.from(index.score('1', texts))).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('featuresOf', () => {
  it('tokenises a URL record once and again when its text changes', () => {
    const record = {
      url: 'https://a.example/x/y',
      host: 'a.example',
      title: 'Bread',
      snippet: '',
      anchors: [] as string[],
      hits: 1,
    };
    const first = featuresOf(record);
    expect(featuresOf(record)).toBe(first);
    record.anchors.push('butter recipe');
    const second = featuresOf(record);
    expect(second).not.toBe(first);
    expect(second.text.ids.length).toBe(3);
    expect(Object.keys({ ...record })).not.toContain('urlFeatures');
    expect(JSON.stringify(record)).not.toContain('ids');
  });
});

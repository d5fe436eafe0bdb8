import { describe, expect, it } from 'vitest';
import { featuresOf } from './url-features.js';

const record = () => ({
  url: 'https://a.example/docs/page',
  host: 'a.example',
  title: 'Bread recipes',
  snippet: 'Butter',
  anchors: ['home'],
  hits: 1,
});

describe('featuresOf', () => {
  it('keeps the features off copies of a record, which are tokenised anew', () => {
    const original = record();
    const features = featuresOf(original);
    const copy = { ...original };
    expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
    expect(featuresOf(copy)).not.toBe(features);
    expect(Array.from(featuresOf(copy).text.ids)).toEqual(Array.from(features.text.ids));
    expect(featuresOf(original)).toBe(features);
  });

  it('works on frozen records, without keeping anything on them', () => {
    const frozen = Object.freeze(record());
    const features = featuresOf(frozen);
    expect(features.text.ids.length).toBe(4);
    expect(features.prefixIds.length).toBe(2);
    expect(Array.from(featuresOf(frozen).text.ids)).toEqual(Array.from(features.text.ids));
  });
});

import { describe, expect, it } from 'vitest';
import { claimKey } from '../research/write/locate-sentence.js';
import { blockOfClaim, describeDifference } from './watch-changes.js';

describe("a watch's changes on the web page", () => {
  it('finds the block of the rendered answer that holds a claim, footnotes and punctuation aside', () => {
    const blocks = ['Acme Pro costs $59 per month. The Team plan costs $99.', 'Support is by email only.'];
    expect(blockOfClaim(blocks, 'The Team plan costs $99.')).toBe(0);
    expect(blockOfClaim(blocks, 'Support is by email only[^2].')).toBe(1);
    expect(blockOfClaim(blocks, 'Nothing like this is in the answer.')).toBe(-1);
    expect(claimKey('It costs $59[^1], now.')).toBe('it costs 59 now');
  });

  it('says what differs, before and after', () => {
    expect(describeDifference({ kind: 'number', before: ['$49'], after: ['$59'] })).toBe('number: $49 → $59');
  });
});

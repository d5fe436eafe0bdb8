import { describe, expect, it } from 'vitest';
import type { SearchProvider } from '../spec/search-provider.js';
import { withConcurrencyLimit } from './limit-concurrency.js';

describe('withConcurrencyLimit', () => {
  it('never lets more than max searches of one provider be in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow: SearchProvider = {
      id: 'slow',
      async search(query) {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 10));
        inFlight--;
        return [{ url: `https://e.example/${query}`, title: query, snippet: '' }];
      },
    };
    const limited = withConcurrencyLimit(slow, 2);
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((query) => limited.search(query)));
    expect(results.map((hits) => hits[0]?.title)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(peak).toBe(2);
    expect(limited.id).toBe('slow');
  });
});

import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { compareCandidates, linkTexts } from './compare-candidates.js';

const paragraph = (topic: string) =>
  `${topic} takes a whole paragraph here, long enough to count as prose rather than as a title, a label, a caption or a teaser line.`;

describe('compareCandidates', () => {
  const article = [paragraph('The first finding'), paragraph('The second finding'), paragraph('The third')];

  it('sees our candidate as the article plus link lines after it', () => {
    const teasers = ['Another story headline', 'A teaser summary.', 'Yet another headline', 'Short blurb.'];
    const comparison = compareCandidates({
      readability: article.join('\n'),
      structure: ['Section name', ...article, ...teasers].join('\n'),
      structureLinks: new Set(['Another story headline', 'Yet another headline', 'Section name']),
    });
    expect(comparison.containment).toBe(1);
    expect(comparison.readabilityProse).toBe(1);
    expect(comparison.interiorExtra).toBe(0);
    expect(comparison.extraLinkLines).toBeCloseTo(3 / 5);
    expect(comparison.extraProse).toBe(0);
  });

  it('measures what ours adds inside the article and how much of it is prose', () => {
    const comparison = compareCandidates({
      readability: article.join('\n'),
      structure: [article[0], paragraph('An inset Readability dropped'), article[1], article[2]].join('\n'),
      structureLinks: new Set(),
    });
    expect(comparison.interiorExtra).toBeGreaterThan(0.2);
    expect(comparison.interiorExtra).toBeLessThan(0.3);
    expect(comparison.extraProse).toBe(1);
    expect(comparison.extraLinkLines).toBe(0);
  });

  it('sees a candidate that shares nothing with the article', () => {
    const comparison = compareCandidates({
      readability: `${article.join('\n')}\nA short line`,
      structure: 'Index entry one\nIndex entry two',
      structureLinks: new Set(),
    });
    expect(comparison.containment).toBe(0);
    expect(comparison.readabilityProse).toBeGreaterThan(0.9);
    expect(comparison.readabilityProse).toBeLessThan(1);
    expect(comparison.interiorExtra).toBe(1);
  });

  it('collects link texts with spaces collapsed', () => {
    const { document } = parseHTML(
      '<div><a href="/a">Read\n   more</a><a href="/b"> </a><p><a>Next</a></p></div>',
    );
    expect([...linkTexts(document.querySelector('div') as unknown as Element)]).toEqual([
      'Read more',
      'Next',
    ]);
  });
});

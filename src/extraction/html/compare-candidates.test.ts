import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { compareCandidates, linkLines } from './compare-candidates.js';
import { domToText } from './dom-to-text.js';

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

  it('finds the lines that are mostly link text, with spaces collapsed', () => {
    const { document } = parseHTML(
      `<div><a href="/a">Read\n   more</a><a href="/b"> </a><p><a>Next</a></p>
      <a href="/c"><div>44 Min.</div><h3>A teaser whose link holds several blocks</h3></a>
      <p>22 May 2021<a href="/d">A headline glued to its date</a></p>
      <p>A paragraph of prose with <a href="/e">one link</a> inside it stays prose.</p></div>`,
    );
    const lines = linkLines(document.querySelector('div') as unknown as Element);
    expect([...lines]).toEqual([
      'Read',
      'more',
      'Next',
      '44 Min.',
      'A teaser whose link holds several blocks',
      '22 May 2021A headline glued to its date',
    ]);
  });

  it('sees the lines of a teaser whose link holds several blocks as link lines', () => {
    const { document } = parseHTML(
      `<main><p>${article.join('</p><p>')}</p><ul>${['First', 'Second', 'Third']
        .map((title) => `<li><a href="/${title}"><span>45 Min.</span><div>${title} programme</div></a></li>`)
        .join('')}</ul></main>`,
    );
    const main = document.querySelector('main') as unknown as Element;
    const comparison = compareCandidates({
      readability: article.join('\n'),
      structure: domToText(main),
      structureLinks: linkLines(main),
    });
    expect(comparison.extraLinkLines).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import type { Reference } from '../../events/deep-search-result.js';
import type { CitedAnswer } from './claim-types.js';
import { compareAnswers, summarizeChanges } from './compare-answers.js';
import { splitClaims } from './split-claims.js';

function cited(...sentences: Array<[string, string]>): CitedAnswer {
  const urls = [...new Set(sentences.map(([, url]) => url))];
  const references: Reference[] = urls.map((url, index) => ({
    index: index + 1,
    url,
    title: `Page ${index + 1}`,
    quote: sentences.find(([, u]) => u === url)![0],
    quoteKind: 'exact',
  }));
  const answer = sentences
    .map(([text, url]) => text.replace(/\.$/, `[^${urls.indexOf(url) + 1}].`))
    .join(' ');
  return { answer, references };
}

const pricing = 'https://acme.example/pricing';

describe('splitClaims', () => {
  it('takes sentences with their footnotes as sources, and leaves headings and footnote definitions out', () => {
    const claims = splitClaims({
      answer:
        '## Prices\n\nThe Pro plan costs $49 per month[^1]. It includes 3 seats[^1][^2].\n\n## Follow-up questions\n\n- Is there a yearly discount?\n\n[^1]: Pricing page',
      references: [
        { index: 1, url: pricing, title: 'Pricing', quote: 'Pro: $49/month', quoteKind: 'exact' },
        { index: 2, url: 'https://acme.example/faq', title: 'FAQ', quote: '3 seats', quoteKind: 'sentence' },
      ],
    });
    expect(claims).toEqual([
      {
        text: 'The Pro plan costs $49 per month.',
        sources: [{ url: pricing, quote: 'Pro: $49/month', title: 'Pricing' }],
      },
      {
        text: 'It includes 3 seats.',
        sources: [
          { url: pricing, quote: 'Pro: $49/month', title: 'Pricing' },
          { url: 'https://acme.example/faq', quote: '3 seats', title: 'FAQ' },
        ],
      },
    ]);
  });
});

describe('compareAnswers', () => {
  it('finds no change in the same facts reworded and reordered', async () => {
    const changes = await compareAnswers(
      cited(
        ["Acme's Pro plan costs $49 per month.", pricing],
        ['The hearing is scheduled for 2026-12-14.', pricing],
      ),
      cited(
        ['The hearing has been set for December 14, 2026.', pricing],
        ['The monthly price of Acme Pro is $49.', pricing],
      ),
    );
    expect(changes.map((change) => change.kind)).toEqual(['unchanged', 'unchanged']);
    expect(summarizeChanges(changes)).toBe('no change');
  });

  it('reports a changed number with both sides, their sources, and the values that differ', async () => {
    const changes = await compareAnswers(
      cited(["Acme's Pro plan costs $49 per month.", pricing]),
      cited(["Acme's Pro plan costs $59 per month.", 'https://acme.example/new-pricing']),
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      kind: 'changed',
      before: { text: "Acme's Pro plan costs $49 per month.", sources: [{ url: pricing }] },
      after: { sources: [{ url: 'https://acme.example/new-pricing' }] },
      differences: [{ kind: 'number', before: ['$49'], after: ['$59'] }],
    });
  });

  it('reports a changed date, a replaced name and a negated status', async () => {
    const changes = await compareAnswers(
      cited(
        ['The hearing is scheduled for 2026-12-14.', pricing],
        ['The mayor of Springfield is Jane Holloway.', pricing],
        ['The FDA has approved the drug for adults.', pricing],
      ),
      cited(
        ['The hearing has been postponed to January 20, 2027.', pricing],
        ['The mayor of Springfield is Marcus Webb.', pricing],
        ['The FDA has not approved the drug for adults.', pricing],
      ),
    );
    expect(changes.map((change) => [change.kind, change.differences?.[0]?.kind])).toEqual([
      ['changed', 'date'],
      ['changed', 'name'],
      ['changed', 'status'],
    ]);
    expect(summarizeChanges(changes)).toBe('3 changed');
  });

  it('pairs a short sentence whose only content is the value that changed', async () => {
    const changes = await compareAnswers(
      cited(['The Orlin Bridge is 412 metres long.', pricing], ['It opened on 3 May 1998.', pricing]),
      cited(['The Orlin Bridge is 412 metres long.', pricing], ['It opened on 9 June 1998.', pricing]),
    );
    expect(changes.map((change) => [change.kind, change.differences?.[0]?.kind])).toEqual([
      ['unchanged', undefined],
      ['changed', 'date'],
    ]);
  });

  it('reports a dropped claim as removed and an added one as new, not as a change', async () => {
    const changes = await compareAnswers(
      cited(['The library is written in Rust.', pricing], ['It has 12,000 stars on GitHub.', pricing]),
      cited(
        ['The library is written in Rust.', pricing],
        ['Its maintainers moved it to a foundation in 2026.', pricing],
      ),
    );
    expect(changes.map((change) => change.kind)).toEqual(['unchanged', 'new', 'removed']);
    expect(summarizeChanges(changes)).toBe('1 new, 1 removed');
  });

  it('keeps "500 employees" and "500 stores" apart although the number is the same', async () => {
    const changes = await compareAnswers(
      cited(['The company has 500 employees.', pricing]),
      cited(['The company opened 500 new stores this year.', pricing]),
    );
    expect(changes.map((change) => change.kind)).toEqual(['new', 'removed']);
  });

  it('asks the judge only about ambiguous pairs, and falls back to the values when it fails', async () => {
    const asked: string[][] = [];
    const before = cited(
      ['The old museum welcomes many visitors in summer.', pricing],
      ['The fee is $20.', pricing],
    );
    const after = cited(
      ['Every summer the museum is crowded with tourists.', pricing],
      ['The fee is $20.', pricing],
    );
    const judged = await compareAnswers(before, after, {
      judge: async (a, b) => {
        asked.push([a, b]);
        return 'changed';
      },
    });
    expect(asked).toEqual([
      [
        'The old museum welcomes many visitors in summer.',
        'Every summer the museum is crowded with tourists.',
      ],
    ]);
    expect(judged.map((change) => change.kind)).toEqual(['changed', 'unchanged']);
    const failing = await compareAnswers(before, after, {
      judge: async () => {
        throw new Error('model down');
      },
    });
    // Without a verdict the pair shares no value, so it is two claims.
    expect(failing.map((change) => change.kind)).toEqual(['new', 'unchanged', 'removed']);
  });

  it('pairs claims by their embeddings when the words alone do not', async () => {
    const before = cited(['Shares of Initech slid sharply.', pricing]);
    const after = cited(['Initech stock dropped a lot.', pricing]);
    expect((await compareAnswers(before, after)).map((change) => change.kind)).toEqual(['new', 'removed']);
    const same = await compareAnswers(before, after, { embed: async (texts) => texts.map(() => [1, 0.1]) });
    expect(same.map((change) => change.kind)).toEqual(['unchanged']);
  });
});

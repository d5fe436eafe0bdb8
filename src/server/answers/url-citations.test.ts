import { describe, expect, it } from 'vitest';
import { renderAnswerMarkdown } from '../../agent/citations/format-footnotes.js';
import type { Reference } from '../../events/deep-search-result.js';
import { urlCitations } from './url-citations.js';

const references: Reference[] = [
  { index: 1, url: 'https://a.example/x', title: 'A', quote: 'alpha', quoteKind: 'exact' },
  { index: 2, url: 'https://b.example/y', title: 'B', quote: 'beta', quoteKind: 'sentence' },
];

describe('urlCitations', () => {
  it('spans every marker in the text, not the footnote definitions, offset into the whole content', () => {
    const content = renderAnswerMarkdown('Alpha[^1] and beta[^2], alpha again[^1].', references);
    const prefix = '<think>\nStep 1\n</think>\n\n';
    const citations = urlCitations(content, references, prefix.length);
    const whole = prefix + content;
    expect(
      citations.map((citation) =>
        whole.slice(citation.url_citation.start_index, citation.url_citation.end_index),
      ),
    ).toEqual(['[^1]', '[^2]', '[^1]']);
    expect(citations.map((citation) => citation.url_citation.url)).toEqual([
      'https://a.example/x',
      'https://b.example/y',
      'https://a.example/x',
    ]);
    expect(citations[1]).toMatchObject({ type: 'url_citation', url_citation: { title: 'B' } });
  });

  it('ignores markers without a reference', () => {
    expect(urlCitations('Claim[^3].', references)).toEqual([]);
  });
});

import type { Reference } from '../../events/deep-search-result.js';

/** OpenAI's citation annotation: where in `content` a source is cited. */
export interface UrlCitation {
  type: 'url_citation';
  url_citation: { url: string; title: string; start_index: number; end_index: number };
}

/**
 * One annotation per footnote marker `[^n]` in the content, spanning the marker. Indices are
 * JavaScript string offsets into the whole content, `offset` being where the answer starts in it.
 */
export function urlCitations(answer: string, references: readonly Reference[], offset = 0): UrlCitation[] {
  const byIndex = new Map(references.map((reference) => [reference.index, reference]));
  const citations: UrlCitation[] = [];
  for (const match of answer.matchAll(/\[\^(\d+)\](?!:)/g)) {
    const reference = byIndex.get(Number(match[1]));
    if (!reference) continue;
    const start = offset + match.index;
    citations.push({
      type: 'url_citation',
      url_citation: {
        url: reference.url,
        title: reference.title,
        start_index: start,
        end_index: start + match[0].length,
      },
    });
  }
  return citations;
}

/** The same citations in a content where the answer starts at `offset` (after a <think> block). */
export function shiftCitations(citations: readonly UrlCitation[], offset: number): UrlCitation[] {
  return citations.map((citation) => ({
    ...citation,
    url_citation: {
      ...citation.url_citation,
      start_index: citation.url_citation.start_index + offset,
      end_index: citation.url_citation.end_index + offset,
    },
  }));
}

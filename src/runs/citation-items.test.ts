import { describe, expect, it } from 'vitest';
import { exportCitations } from './citation-export.js';
import { citationItems, cslDate } from './citation-items.js';
import type { RunEvidence } from './run-evidence.js';

const source = (n: number, url: string, extra: Partial<RunEvidence['sources'][number]> = {}) => ({
  n,
  url,
  title: `Title ${n}`,
  accessed_at: '2026-12-05T14:33:00.000Z',
  status: 200,
  hash: 'ab'.repeat(32),
  site_name: null,
  author: null,
  published_at: null,
  truncated: false,
  footnotes: [n],
  ...extra,
});

const claim = (footnote: number, url: string, quote: string, sourceN: number) => ({
  footnote,
  claim: `claim ${footnote}`,
  quote,
  quote_kind: 'exact' as const,
  verified: true as const,
  verification: 'found',
  source: sourceN,
  url,
  title: `Title ${sourceN}`,
  accessed_at: '2026-12-05T14:33:00.000Z',
});

const evidence: RunEvidence = {
  object: 'run.evidence',
  run_id: 'run-1',
  question: 'q',
  mode: 'search',
  claims: [
    claim(1, 'https://www.news.example/a', 'first\nquote', 1),
    claim(2, 'https://www.news.example/a', 'second quote', 1),
    claim(3, 'https://blog.example/b', 'third', 2),
  ],
  sources: [
    source(1, 'https://www.news.example/a', {
      site_name: 'The News',
      author: 'Ada Lovelace',
      published_at: '2024-03-04T09:00:00.000Z',
      footnotes: [1, 2],
    }),
    source(2, 'https://blog.example/b', { footnotes: [3] }),
  ],
  skipped: [],
};

describe('citation items (CSL-JSON)', () => {
  it('one webpage item per source: site, author and date where known, accessed date, quotes as a note', () => {
    expect(citationItems(evidence)).toEqual([
      {
        id: 'source-1',
        type: 'webpage',
        title: 'Title 1',
        URL: 'https://www.news.example/a',
        'container-title': 'The News',
        publisher: 'The News',
        author: [{ literal: 'Ada Lovelace' }],
        issued: { 'date-parts': [[2024, 3, 4]] },
        accessed: { 'date-parts': [[2026, 12, 5]] },
        note: 'Quoted: [1] "first quote"; [2] "second quote"',
      },
      {
        id: 'source-2',
        type: 'webpage',
        title: 'Title 2',
        URL: 'https://blog.example/b',
        // No site name on the page: its host names the site; no publisher, author or date is made up.
        'container-title': 'blog.example',
        accessed: { 'date-parts': [[2026, 12, 5]] },
        note: 'Quoted: [3] "third"',
      },
    ]);
  });

  it('reads dates as far as they go, and nothing from what is not a date', () => {
    expect(cslDate('2024')).toEqual({ 'date-parts': [[2024]] });
    expect(cslDate('2024-03')).toEqual({ 'date-parts': [[2024, 3]] });
    expect(cslDate('yesterday')).toBeUndefined();
    expect(cslDate(null)).toBeUndefined();
  });

  it('exports BibLaTeX @online entries with urldate and RIS ELEC records with the access date', () => {
    const bibtex = exportCitations(evidence, 'bibtex');
    expect(bibtex).toContain('@online{source1,');
    expect(bibtex).toContain('urldate = {2026-12-05}');
    expect(bibtex).toContain('url = {https://blog.example/b}');
    const ris = exportCitations(evidence, 'ris');
    expect(ris.match(/^TY {2}- ELEC$/gm)).toHaveLength(2);
    expect(ris.match(/^M1 {2}- 2026\/12\/5\/$/gm)).toHaveLength(2);
    expect(ris).toContain('UR  - https://www.news.example/a');
    // Every line of a record is a tag: the note's line break did not leak into the file.
    for (const line of ris.trim().split('\n')) expect(line).toMatch(/^[A-Z][A-Z0-9] {2}-( |$)/);
    expect(JSON.parse(exportCitations(evidence, 'csl-json'))).toEqual(citationItems(evidence));
  });
});

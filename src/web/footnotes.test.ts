import { describe, expect, it } from 'vitest';
import {
  alsoAtText,
  hostOf,
  safeHref,
  splitFootnoteMarkers,
  stripFootnoteDefinitions,
  toSourceRefs,
} from './footnotes.js';

describe('footnote helpers', () => {
  it('splits markers out of text, adjacent ones included', () => {
    expect(splitFootnoteMarkers('Paris[^1][^2] is the capital.[^12]')).toEqual([
      'Paris',
      1,
      2,
      ' is the capital.',
      12,
    ]);
    expect(splitFootnoteMarkers('no markers [^x] here')).toEqual(['no markers [^x] here']);
  });

  it('strips footnote definitions (with indented continuation lines) and keeps the rest', () => {
    const markdown =
      'Answer[^1].\n\n[^1]: https://example.org "Example"\n    more of it\n[^2]: other\nAfter.';
    expect(stripFootnoteDefinitions(markdown)).toBe('Answer[^1].\n\nAfter.');
  });

  it('links only http(s) URLs and shows hosts without www', () => {
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,<script>')).toBeUndefined();
    expect(safeHref('https://example.org/a b')).toBe('https://example.org/a%20b');
    expect(hostOf('https://www.example.org/x')).toBe('example.org');
    expect(hostOf('not a url')).toBe('not a url');
  });

  it('reads references of any shape, numbering those without an index by position', () => {
    expect(
      toSourceRefs([
        { index: 3, url: 'https://a.example/x', title: 'A', quote: 'q', quoteKind: 'sentence' },
        { url: 'https://b.example/' },
        { title: 'no url' },
        null,
      ]),
    ).toEqual([
      { index: 3, url: 'https://a.example/x', title: 'A', quote: 'q', quoteKind: 'sentence' },
      { index: 2, url: 'https://b.example/', title: 'b.example', quote: '', quoteKind: 'exact' },
    ]);
    expect(toSourceRefs(undefined)).toEqual([]);
  });

  it("keeps a source's copies, from the run API (alsoAt) or the wire format (also_at)", () => {
    const [camel, snake] = toSourceRefs([
      { index: 1, url: 'https://a.example/x', alsoAt: ['https://b.example/x', 7] },
      { index: 2, url: 'https://c.example/y', also_at: ['https://www.d.example/y', 'https://e.example/y'] },
    ]);
    expect(camel!.alsoAt).toEqual(['https://b.example/x']);
    expect(alsoAtText(camel!.alsoAt)).toBe('also at 1 site: b.example');
    expect(alsoAtText(snake!.alsoAt)).toBe('also at 2 sites: d.example, e.example');
    expect(alsoAtText(undefined)).toBe('');
  });
});

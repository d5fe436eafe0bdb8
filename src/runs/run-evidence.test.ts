import { describe, expect, it } from 'vitest';
import { claimOf, runEvidence, sourceView } from './run-evidence.js';
import type { RunRecord } from './run-record.js';
import { snapshotOf } from './source-snapshot.js';

const answer = 'Sales reached 3 million units in 2022.[^1] They fell by 5% in 2023[^2], said the IEA.[^3]';
const references = [
  {
    index: 1,
    url: 'https://a.example/r',
    title: 'A',
    quote: 'reached 3 million units in 2022',
    quoteKind: 'exact',
  },
  {
    index: 2,
    url: 'https://a.example/r',
    title: 'A',
    quote: 'Sales fell by 5% in 2023',
    quoteKind: 'sentence',
  },
  { index: 3, url: 'https://c.example/', title: 'C (snippet)', quote: 'declined', quoteKind: 'exact' },
];
const record = (result: Record<string, unknown> | null, status = 'completed') =>
  ({ id: 'run-1', question: 'q?', mode: 'search', status, result }) as unknown as RunRecord;
const read = snapshotOf({
  url: 'https://a.example/r',
  title: 'A as read',
  text: 'Heat pump sales reached 3 million units in 2022. Sales fell by 5% in 2023.',
  markdown: '',
  step: 1,
  fetchedAt: '2026-12-05T10:00:00.000Z',
  status: 200,
});

describe('run evidence', () => {
  it('lists each footnote with its sentence and quote; a source read once for several footnotes; a snippet source unread', () => {
    const evidence = runEvidence(record({ answer, references }), [read]);
    expect(
      evidence.claims.map((claim) => [claim.footnote, claim.claim, claim.source, claim.accessed_at]),
    ).toEqual([
      [1, 'Sales reached 3 million units in 2022.', 1, '2026-12-05T10:00:00.000Z'],
      [2, 'They fell by 5% in 2023', 1, '2026-12-05T10:00:00.000Z'],
      [3, 'They fell by 5% in 2023, said the IEA.', null, null],
    ]);
    expect(evidence.claims[1]!.verification).toContain('best matching sentence');
    expect(
      evidence.sources.map((source) => [source.n, source.title, source.footnotes, source.status]),
    ).toEqual([
      [1, 'A as read', [1, 2], 200],
      [2, 'C (snippet)', [3], null],
    ]);
  });

  it('finds the claim of a footnote, not its definition', () => {
    expect(claimOf('## Results\nIt rose[^1].\n\n[^1]: https://a.example', 1)).toBe('It rose');
    expect(claimOf('[^2]: a definition only', 2)).toBe('');
  });

  it('says why there is nothing to show: no answer yet, no snapshots kept, no such footnote', () => {
    expect(() => runEvidence(record(null, 'running'), [])).toThrow(/has no answer \(running\)/);
    expect(() => runEvidence(record({ answer, references }), [])).toThrow(/recorded before deepsearch kept/);
    expect(() => sourceView(record({ answer, references }), [read], '4')).toThrow(
      'run run-1 has no source 4: its footnotes are 1 to 3',
    );
    expect(() => sourceView(record({ answer, references }), [read], '3')).toThrow(/search result's snippet/);
  });

  it("marks where a footnote's quote is in the text read", () => {
    const view = sourceView(record({ answer, references }), [read], '2');
    expect(read.text.slice(view.quoteStart, view.quoteEnd)).toBe('Sales fell by 5% in 2023');
  });
});

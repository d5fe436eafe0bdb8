import { InputError } from '../core/errors/index.js';
import type { Reference, SkippedPage } from '../events/deep-search-result.js';
import { findQuote } from '../retrieval/find-quote.js';
import { urlKey } from '../retrieval/normalize-url.js';
import type { RunRecord } from './run-record.js';
import type { SourceSnapshot } from './source-snapshot.js';

/** How a reference's quote was checked; both are checks against the text the run read. */
const verification = {
  exact: 'the quote was found in the text read from the source',
  sentence: "the model's quote was replaced by the source's best matching sentence, found in the text read",
} as const;

/** A source the run cites, as read (`runs evidence`, GET /v1/runs/{id}/evidence). */
export interface EvidenceSource {
  /** 1-based, in the order first cited. */
  n: number;
  url: string;
  title: string;
  /** When it was read (ISO 8601); null: no snapshot (a quote from a search result's snippet). */
  accessed_at: string | null;
  status: number | null;
  /** sha-256 of the text read. */
  hash: string | null;
  site_name: string | null;
  author: string | null;
  published_at: string | null;
  /** The snapshot keeps only the first part of a long text. */
  truncated: boolean;
  /** The footnotes citing it. */
  footnotes: number[];
}

/** An answer's sentence with a footnote, the quote supporting it, and where it was read. */
export interface EvidenceClaim {
  footnote: number;
  /** The answer's sentence carrying the footnote, without footnote marks ('' when not found). */
  claim: string;
  quote: string;
  quote_kind: Reference['quoteKind'];
  /** Every quote shown was checked against the text read (quote_kind says how). */
  verified: true;
  verification: string;
  /** The source's n in `sources` (null: the quote came from a search result's snippet). */
  source: number | null;
  url: string;
  title: string;
  accessed_at: string | null;
}

export interface RunEvidence {
  object: 'run.evidence';
  run_id: string;
  question: string;
  mode: string;
  claims: EvidenceClaim[];
  sources: EvidenceSource[];
  /** Pages the run chose but could not read, with why (absent from runs stored before it was kept). */
  skipped: SkippedPage[];
}

/** The references of a finished run's result, and the answer's text (a report's markdown). */
export function citedReferences(record: RunRecord): {
  references: Reference[];
  text: string;
  skipped: SkippedPage[];
} {
  const result = record.result as {
    answer?: unknown;
    markdown?: unknown;
    references?: unknown;
    skipped?: unknown;
  } | null;
  if (record.status !== 'completed' || !result || !Array.isArray(result.references))
    throw new InputError(
      `run ${record.id} has no answer (${record.status}): a run's evidence is kept when it completes`,
      { code: 'no_evidence' },
    );
  const text = typeof result.answer === 'string' ? result.answer : String(result.markdown ?? '');
  const skipped = Array.isArray(result.skipped) ? (result.skipped as SkippedPage[]) : [];
  return { references: result.references as Reference[], text, skipped };
}

/**
 * The run's claims and sources. A run that cites pages but has no snapshot of any was recorded
 * before snapshots were kept: said, not shown as sources never read.
 */
export function runEvidence(record: RunRecord, snapshots: readonly SourceSnapshot[]): RunEvidence {
  const { references, text, skipped } = citedReferences(record);
  if (references.length > 0 && snapshots.length === 0)
    throw new InputError(
      `run ${record.id} has no source snapshots: it was recorded before deepsearch kept what a run read, or its quotes all come from search results' snippets`,
      { code: 'no_snapshots' },
    );
  const sources: EvidenceSource[] = [];
  const byKey = new Map<string, EvidenceSource>();
  const snapshotOf = snapshotFinder(snapshots);
  for (const reference of references) {
    const key = urlKey(reference.url) ?? reference.url;
    let source = byKey.get(key);
    if (!source) {
      const snapshot = snapshotOf(reference.url);
      source = {
        n: sources.length + 1,
        url: reference.url,
        title: snapshot?.title || reference.title,
        accessed_at: snapshot?.fetchedAt ?? null,
        status: snapshot?.status ?? null,
        hash: snapshot?.hash ?? null,
        site_name: snapshot?.siteName ?? null,
        author: snapshot?.author ?? null,
        published_at: snapshot?.publishedAt ?? null,
        truncated: snapshot?.truncated ?? false,
        footnotes: [],
      };
      byKey.set(key, source);
      sources.push(source);
    }
    source.footnotes.push(reference.index);
  }
  const claims = references.map((reference): EvidenceClaim => {
    const source = byKey.get(urlKey(reference.url) ?? reference.url)!;
    return {
      footnote: reference.index,
      claim: claimOf(text, reference.index),
      quote: reference.quote,
      quote_kind: reference.quoteKind,
      verified: true,
      verification: verification[reference.quoteKind] ?? verification.exact,
      source: source.accessed_at === null ? null : source.n,
      url: reference.url,
      title: reference.title,
      accessed_at: source.accessed_at,
    };
  });
  return {
    object: 'run.evidence',
    run_id: record.id,
    question: record.question,
    mode: record.mode,
    claims,
    sources,
    skipped,
  };
}

/** Footnote n's snapshot, with where its quote is in the kept text (`runs source`, GET .../sources/{n}). */
export interface SourceView {
  footnote: number;
  reference: Reference;
  snapshot: SourceSnapshot;
  /** Character offsets of the quote in `snapshot.text`; absent when it lies past what is kept. */
  quoteStart?: number;
  quoteEnd?: number;
}

export function sourceView(
  record: RunRecord,
  snapshots: readonly SourceSnapshot[],
  footnote: string,
): SourceView {
  const { references } = citedReferences(record);
  const n = Number(footnote);
  const reference = Number.isInteger(n) ? references.find((item) => item.index === n) : undefined;
  if (!reference)
    throw new InputError(
      references.length === 0
        ? `run ${record.id} cites no source`
        : `run ${record.id} has no source ${String(footnote).slice(0, 20)}: its footnotes are 1 to ${references.length}`,
      { code: 'source_not_found', param: 'n' },
    );
  const snapshot = snapshotFinder(snapshots)(reference.url);
  if (!snapshot)
    throw new InputError(
      snapshots.length === 0
        ? `run ${record.id} has no source snapshots: it was recorded before deepsearch kept what a run read, or its quotes all come from search results' snippets`
        : `source ${n} of run ${record.id} was not read: its quote comes from a search result's snippet (${reference.url})`,
      { code: 'no_snapshots' },
    );
  const match = findQuote(reference.quote, snapshot.text);
  return {
    footnote: n,
    reference,
    snapshot,
    ...(match ? { quoteStart: match.start, quoteEnd: match.end } : {}),
  };
}

function snapshotFinder(snapshots: readonly SourceSnapshot[]) {
  const byKey = new Map(snapshots.map((snapshot) => [urlKey(snapshot.url) ?? snapshot.url, snapshot]));
  return (url: string) => byKey.get(urlKey(url) ?? url);
}

/** The sentence of `text` that carries footnote `n` (not its definition), without footnote marks. */
export function claimOf(text: string, n: number): string {
  const marker = `[^${n}]`;
  let at = text.indexOf(marker);
  while (at !== -1 && text[at + marker.length] === ':') at = text.indexOf(marker, at + 1);
  if (at === -1) return '';
  // Footnote marks go first: one after a sentence's full stop ("2022.[^1] They") hides its end.
  const before = text.slice(0, at).replace(/\[\^\d+\]/g, '');
  const start = Math.max(
    before.lastIndexOf('. '),
    before.lastIndexOf('! '),
    before.lastIndexOf('? '),
    before.lastIndexOf('\n'),
  );
  return before
    .slice(start + 1)
    .replace(/^[\s#>*-]+/, '')
    .trim();
}

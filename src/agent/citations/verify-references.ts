import type { Reference } from '../../events/deep-search-result.js';
import { bestMatchingSentence, findQuote, type QuoteMatch } from '../../retrieval/find-quote.js';
import { hostOf, urlKey } from '../../retrieval/normalize-url.js';
import type { PageGrouping } from '../../retrieval/page-groups.js';
import type { AgentState } from '../state/agent-state.js';
import type { StoredPage } from '../state/page-store.js';

export interface ProposedReference {
  url: string;
  quote: string;
}

export interface VerifiedReferences {
  /** Kept references, numbered 1..n in the order the model gave them. */
  references: Reference[];
  /** The model's footnote number → the kept reference's number (absent: dropped). */
  renumber: Map<number, number>;
  dropped: Array<{ url: string; reason: string }>;
}

/**
 * Keeps a reference only if its URL was searched or read in this run and its quote is really in
 * the text we have for it (case, whitespace and punctuation ignored). A quote not found is
 * replaced by the source's best matching sentence for the quote or for the claim it supports;
 * failing that, the reference is dropped. Never is an unverified quote shown as a quote. Copies of
 * one story (retrieval/page-groups.ts) are one source: a quote from a copy cites the group's
 * original when the original holds it too, the other pages go to `alsoAt`, and one quote is one
 * reference whichever copy the model named.
 */
export function verifyReferences(
  state: AgentState,
  answer: string,
  proposed: ProposedReference[],
): VerifiedReferences {
  const references: Reference[] = [];
  const renumber = new Map<number, number>();
  const dropped: Array<{ url: string; reason: string }> = [];
  const seen = new Map<string, number>();
  const grouping = state.pages.grouping();
  proposed.forEach((reference, position) => {
    const footnote = position + 1;
    const named = sourceFor(state, reference.url);
    if (!named) {
      dropped.push({ url: reference.url, reason: 'not searched or read in this run' });
      return;
    }
    const found = matchQuote(state, named, reference.quote, claimFor(answer, footnote));
    if (!found) {
      dropped.push({ url: reference.url, reason: 'quote not found in the source' });
      return;
    }
    const { source, match, alsoAt } = citeOriginal(state, grouping, named, found);
    // Offsets are the cited page's: a copy's quote found in the original is keyed at the original.
    const key = `${urlKey(source.url) ?? source.url}|${match.start}|${match.end}`;
    const existing = seen.get(key);
    if (existing !== undefined) {
      renumber.set(footnote, existing);
      return;
    }
    const index = references.length + 1;
    references.push({
      index,
      url: source.url,
      title: source.title,
      quote: match.quote,
      quoteKind: match.kind,
      ...(alsoAt.length ? { alsoAt } : {}),
    });
    seen.set(key, index);
    renumber.set(footnote, index);
  });
  return { references, renumber, dropped };
}

interface Source {
  url: string;
  title: string;
  text: string;
  isPage: boolean;
}

function sourceFor(state: AgentState, url: string): Source | undefined {
  const page = state.pages.get(url);
  if (page) return pageSource(page);
  const record = state.urls.get(url);
  const snippet = state.snippetTextFor(url);
  if (!record || !snippet) return undefined;
  return { url: record.url, title: snippet.title || hostOf(record.url), text: snippet.text, isPage: false };
}

/**
 * The group's original in place of a copy when the quote is found in the original too (a copy's
 * own header or footer is not), with the group's other pages.
 */
function citeOriginal(
  state: AgentState,
  grouping: PageGrouping<StoredPage>,
  source: Source,
  match: QuoteMatch,
): { source: Source; match: QuoteMatch; alsoAt: string[] } {
  const group = source.isPage ? grouping.groupOf(source.url) : undefined;
  if (!group) return { source, match, alsoAt: [] };
  const { original } = group;
  const inOriginal =
    original.url === source.url ? match : findQuote(match.quote, state.pages.folded(original));
  const cited = inOriginal
    ? { source: pageSource(original), match: { ...inOriginal, kind: match.kind } }
    : { source, match };
  const alsoAt = [original, ...group.copies]
    .map((page) => page.url)
    .filter((url) => url !== cited.source.url);
  return { ...cited, alsoAt };
}

function pageSource(page: StoredPage): Source {
  return { url: page.url, title: page.title || hostOf(page.url), text: page.text, isPage: true };
}

function matchQuote(state: AgentState, source: Source, quote: string, claim: string): QuoteMatch | undefined {
  const page = source.isPage ? state.pages.get(source.url) : undefined;
  const exact = findQuote(quote, page ? state.pages.folded(page) : source.text);
  if (exact) return exact;
  return (
    bestMatchingSentence(quote, source.text) ?? (claim ? bestMatchingSentence(claim, source.text) : undefined)
  );
}

/** The sentence of the answer that carries footnote `n`, without markers: what the quote must support. */
function claimFor(answer: string, footnote: number): string {
  const marker = `[^${footnote}]`;
  const at = answer.indexOf(marker);
  if (at === -1) return '';
  const before = answer.slice(0, at);
  const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('\n')) + 1;
  return before
    .slice(start)
    .replace(/\[\^\d+\]/g, '')
    .trim();
}

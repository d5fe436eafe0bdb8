import type { Reference } from '../../events/deep-search-result.js';
import { bestMatchingSentence, findQuote, type QuoteMatch } from '../../retrieval/find-quote.js';
import { hostOf, urlKey } from '../../retrieval/normalize-url.js';
import type { AgentState } from '../state/agent-state.js';

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
 * failing that, the reference is dropped. Never is an unverified quote shown as a quote.
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
  proposed.forEach((reference, position) => {
    const footnote = position + 1;
    const source = sourceFor(state, reference.url);
    if (!source) {
      dropped.push({ url: reference.url, reason: 'not searched or read in this run' });
      return;
    }
    const match = matchQuote(state, source, reference.quote, claimFor(answer, footnote));
    if (!match) {
      dropped.push({ url: reference.url, reason: 'quote not found in the source' });
      return;
    }
    const key = `${urlKey(source.url)}|${match.start}|${match.end}`;
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
  if (page) return { url: page.url, title: page.title || hostOf(page.url), text: page.text, isPage: true };
  const record = state.urls.get(url);
  const snippet = state.snippetTextFor(url);
  if (!record || !snippet) return undefined;
  return { url: record.url, title: snippet.title || hostOf(record.url), text: snippet.text, isPage: false };
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

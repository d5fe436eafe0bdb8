import { type FoldedText, foldText, locateFolded } from './match-text.js';
import { termsOf } from './tokenize.js';

export interface QuoteMatch {
  /** The quote as it appears in the source (original case and punctuation). */
  quote: string;
  start: number;
  end: number;
  /** 'exact' when the quote was found; 'sentence' when replaced by the best matching sentence. */
  kind: 'exact' | 'sentence';
}

const ellipsis = /\s*(?:\.{3,}|…|\[\.\.\.\])\s*/;

/**
 * Finds a quote in the text it claims to come from, ignoring case, whitespace and punctuation.
 * Quotes elided with "..." must match piece by piece, in order, close together.
 */
export function findQuote(quote: string, source: string | FoldedText): QuoteMatch | undefined {
  const folded = typeof source === 'string' ? foldText(source) : source;
  const pieces = quote.split(ellipsis).filter((piece) => foldText(piece).folded.length > 0);
  if (pieces.length === 0) return undefined;
  const spans: Array<{ start: number; end: number }> = [];
  let from = 0;
  for (const piece of pieces) {
    const span = locateFolded(piece, folded, from);
    if (!span) return undefined;
    const previous = spans.at(-1);
    if (previous && span.start - previous.end > 2000) return undefined;
    spans.push(span);
    from = foldedIndexAfter(folded, span.end);
  }
  const quoteText = spans.map((span) => folded.source.slice(span.start, span.end)).join(' … ');
  return { quote: quoteText, start: spans[0]!.start, end: spans.at(-1)!.end, kind: 'exact' };
}

/**
 * The sentence of `source` that best supports `claim`: the share of the claim's terms it holds.
 * Returns undefined when no sentence reaches `minOverlap`, so a weak match is never shown.
 */
export function bestMatchingSentence(
  claim: string,
  source: string,
  minOverlap = 0.6,
): QuoteMatch | undefined {
  const wanted = new Set(termsOf(claim));
  if (wanted.size === 0) return undefined;
  let best: { start: number; end: number; score: number } | undefined;
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });
  for (const { segment, index } of segmenter.segment(source)) {
    const terms = new Set(termsOf(segment));
    let hits = 0;
    for (const term of wanted) if (terms.has(term)) hits++;
    const score = hits / wanted.size;
    if (score > (best?.score ?? 0)) best = { start: index, end: index + segment.trimEnd().length, score };
  }
  if (!best || best.score < minOverlap) return undefined;
  const quote = source.slice(best.start, best.end).trim();
  return { quote, start: best.start, end: best.end, kind: 'sentence' };
}

function foldedIndexAfter(folded: FoldedText, originalEnd: number): number {
  let low = 0;
  let high = folded.offsets.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (folded.offsets[middle]! < originalEnd) low = middle + 1;
    else high = middle;
  }
  return low;
}

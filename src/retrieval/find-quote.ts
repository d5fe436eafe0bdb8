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
    spans.push(withinOneBlock(folded.source, span));
    from = foldedIndexAfter(folded, span.end);
  }
  const quoteText = spans.map((span) => folded.source.slice(span.start, span.end)).join(' … ');
  return { quote: quoteText, start: spans[0]!.start, end: spans.at(-1)!.end, kind: 'exact' };
}

/** A line this short without a sentence's end is a heading or a label, not a wrapped line of prose. */
const maxHeadingChars = 60;
const sentenceEnd = /[.!?。！？]["'”’)\]]*\s*$/u;

/**
 * A quote never runs across blocks: a heading glued to the paragraph under it ("Founding The
 * Varnholt Observatory was founded…") is not what the page says. The span is cut at each line
 * break that ends a block — after a sentence's end, or after a short line (a heading, a label) —
 * and its longest block is kept. A break inside a wrapped sentence (a PDF's or a plain-text
 * file's long lines) is not a block's end.
 */
export function withinOneBlock(
  source: string,
  span: { start: number; end: number },
): { start: number; end: number } {
  const blocks: Array<{ start: number; end: number }> = [];
  let blockStart = span.start;
  for (
    let at = source.indexOf('\n', span.start);
    at !== -1 && at < span.end;
    at = source.indexOf('\n', at + 1)
  ) {
    const line = source.slice(source.lastIndexOf('\n', at - 1) + 1, at);
    if (!sentenceEnd.test(line) && line.trim().length > maxHeadingChars) continue;
    blocks.push({ start: blockStart, end: at });
    blockStart = at + 1;
  }
  if (blocks.length === 0) return span;
  blocks.push({ start: blockStart, end: span.end });
  const longest = blocks.reduce((best, block) =>
    visibleLength(source, block) > visibleLength(source, best) ? block : best,
  );
  return trimSpan(source, longest);
}

function visibleLength(source: string, span: { start: number; end: number }): number {
  return source.slice(span.start, span.end).trim().length;
}

function trimSpan(source: string, span: { start: number; end: number }): { start: number; end: number } {
  let { start, end } = span;
  while (start < end && /\s/.test(source[start]!)) start++;
  while (end > start && /\s/.test(source[end - 1]!)) end--;
  return { start, end };
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

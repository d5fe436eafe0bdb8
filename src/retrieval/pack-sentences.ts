import type { TextChunk } from './chunk-text.js';
import { createLexicalChunkScorer, type LexicalChunkScorer } from './lexical-chunk-scorer.js';
import { openingNameLength } from './opening-name.js';
import type { Snippet } from './select-snippets.js';

/** A paragraph cut into sentences, its heading lines apart (kept with the first sentence taken). */
export interface SentencedParagraph {
  start: number;
  end: number;
  /** Characters of heading lines (and the blank line after them) at the paragraph's start. */
  headingLength: number;
  /**
   * Characters of the name an untitled paragraph of several sentences opens with (opening-name.ts),
   * from its start: its subject, kept like a heading with the first of its sentences taken. 0 if none.
   */
  nameLength: number;
  /** Indexes into the page's sentence list. */
  first: number;
  last: number;
}

export interface PageSentences {
  sentences: TextChunk[];
  paragraphs: SentencedParagraph[];
  scorer: LexicalChunkScorer;
}

// A sentence ends at . ! ? (and a closing quote or bracket) before a space, but not after an
// initial or a short capitalised abbreviation ("J. R. R.", "U.S.", "Mr.", "St.", "Inc.").
const sentenceEnd = /[.!?]+["'”’)\]]?\s+|\n+/g;
const abbreviation = /(?:^|[\s(])(?:\p{Lu}[\p{Ll}]{0,2}|\p{Lu}(?:\.\p{Lu})+)$/u;

/** The page's sentences, paragraph by paragraph, and one lexical scorer over all of them. */
export function sentencesOfParagraphs(
  text: string,
  paragraphs: ReadonlyArray<TextChunk & { titleLength?: number }>,
): PageSentences {
  const sentences: TextChunk[] = [];
  const out: SentencedParagraph[] = [];
  for (const paragraph of paragraphs) {
    const headingLength = paragraph.titleLength ?? headingLengthOf(paragraph.text);
    const first = sentences.length;
    splitSentences(text, paragraph.start + headingLength, paragraph.end, sentences);
    const last = sentences.length - 1;
    if (last < first) {
      out.push({ start: paragraph.start, end: paragraph.end, headingLength: 0, nameLength: 0, first, last });
      continue;
    }
    const opening = sentences[first]!;
    const nameLength =
      headingLength === 0 && last > first && opening.start === paragraph.start
        ? openingNameLength(opening.text)
        : 0;
    out.push({ start: paragraph.start, end: paragraph.end, headingLength, nameLength, first, last });
  }
  return { sentences, paragraphs: out, scorer: createLexicalChunkScorer(text, sentences, { topicChars: 0 }) };
}

function headingLengthOf(paragraph: string): number {
  let at = 0;
  while (/^#{1,6} /.test(paragraph.slice(at))) {
    const newline = paragraph.indexOf('\n', at);
    if (newline === -1) return 0;
    at = newline + 1;
    while (paragraph[at] === '\n' || paragraph[at] === ' ') at++;
  }
  return at;
}

function splitSentences(text: string, from: number, to: number, into: TextChunk[]): void {
  const body = text.slice(from, to);
  let start = 0;
  for (const match of body.matchAll(sentenceEnd)) {
    if (match[0][0] === '.' && abbreviation.test(body.slice(Math.max(start, match.index - 6), match.index)))
      continue;
    const end = match.index + match[0].length;
    if (body.slice(start, end).trim()) into.push(chunkAt(text, from + start, from + end));
    start = end;
  }
  if (body.slice(start).trim()) into.push(chunkAt(text, from + start, to));
}

function chunkAt(text: string, start: number, end: number): TextChunk {
  return { start, end, text: text.slice(start, end) };
}

export interface PackOptions {
  budgetChars: number;
  /** Each paragraph's score in [0, 1] (0: not kept). */
  scores: ArrayLike<number>;
  /** The query a paragraph's sentences are scored with (the question, or what reached it). */
  queryOf(paragraph: number): string;
  /**
   * Share of a sentence's score that is its paragraph's alone; the rest is how well the sentence
   * itself matches (against the best sentence of its paragraph). 1 keeps paragraphs whole, best
   * first; lower spends the budget on the best sentences of more paragraphs. Default 0.5.
   */
  paragraphShare?: number;
}

interface Unit {
  paragraph: number;
  sentence: number;
  score: number;
}

/**
 * Sentences, best first by their paragraph's score blended with their own, each paragraph's
 * heading (or, untitled, the name it opens with) kept with the first of its sentences taken, until
 * the budget is spent: a hop's answer is usually one sentence of its paragraph, and the room the
 * rest would take holds the next hop; the heading or name says whom that sentence is about.
 * Returned in page order as contiguous spans with true offsets.
 */
export function packSentences(text: string, page: PageSentences, options: PackOptions): Snippet[] {
  const share = options.paragraphShare ?? 0.5;
  const relevance = new Map<string, Float64Array>();
  const units: Unit[] = [];
  page.paragraphs.forEach((paragraph, index) => {
    const paragraphScore = options.scores[index]!;
    if (paragraphScore <= 0 || paragraph.last < paragraph.first) return;
    const query = options.queryOf(index);
    const sentenceScores = relevance.get(query) ?? page.scorer.score(query);
    relevance.set(query, sentenceScores);
    let best = 0;
    for (let at = paragraph.first; at <= paragraph.last; at++) best = Math.max(best, sentenceScores[at]!);
    for (let at = paragraph.first; at <= paragraph.last; at++) {
      const own = best > 0 ? sentenceScores[at]! / best : 0;
      units.push({ paragraph: index, sentence: at, score: paragraphScore * (share + (1 - share) * own) });
    }
  });
  units.sort((a, b) => b.score - a.score || a.sentence - b.sentence);
  const opened = new Set<number>();
  const spans: Array<{ start: number; end: number; score: number }> = [];
  let used = 0;
  for (const unit of units) {
    const paragraph = page.paragraphs[unit.paragraph]!;
    const sentence = page.sentences[unit.sentence]!;
    const opening = !opened.has(unit.paragraph);
    const heading = opening ? paragraph.headingLength : 0;
    // The opening name is inside the first sentence: kept apart only when another comes first.
    const name = opening && unit.sentence !== paragraph.first ? paragraph.nameLength : 0;
    const named = !opening && unit.sentence === paragraph.first ? paragraph.nameLength : 0;
    const cost = sentence.end - sentence.start + heading + name - named;
    if (used + cost > options.budgetChars) continue;
    used += cost;
    opened.add(unit.paragraph);
    if (heading + name > 0)
      spans.push({ start: paragraph.start, end: paragraph.start + heading + name, score: unit.score });
    spans.push({ start: sentence.start, end: sentence.end, score: unit.score });
  }
  return mergeSpans(text, spans);
}

function mergeSpans(text: string, spans: Array<{ start: number; end: number; score: number }>): Snippet[] {
  spans.sort((a, b) => a.start - b.start);
  const snippets: Snippet[] = [];
  for (const span of spans) {
    const previous = snippets.at(-1);
    if (previous && previous.end >= span.start) {
      previous.end = Math.max(previous.end, span.end);
      previous.score = Math.max(previous.score, span.score);
    } else snippets.push({ start: span.start, end: span.end, text: '', score: span.score });
  }
  for (const snippet of snippets) snippet.text = text.slice(snippet.start, snippet.end);
  return snippets;
}

import { type AnswerCue, answerCueFor } from './answer-cues.js';
import { bm25Defaults, bm25Idf, bm25LengthNorm, bm25TermWeight } from './bm25.js';
import type { TextChunk } from './chunk-text.js';
import { looksLikeCitation } from './citation-chunks.js';
import { type WeightedTerm, weightedQuestionTerms } from './question-terms.js';
import { cjkPattern, isWordCode } from './tokenize.js';

export interface LexicalChunkScorer {
  /** One BM25 score ≥ 0 per chunk, in chunk order. */
  score(question: string): Float64Array;
  /** The chunks holding one term (found as score() finds it), in order. */
  chunksWith(term: string): number[];
}

export interface LexicalChunkScorerOptions {
  k1?: number;
  b?: number;
  /**
   * How many leading characters of the text name its topic (title, first heading): question terms
   * found there weigh less. Default 200; 0 for texts that are not one page.
   */
  topicChars?: number;
  /** Extra share of score for matching chunks that hold what the answer looks like. Default 0.6; 0 off. */
  answerCueBonus?: number;
  /** Extra share of score per further distinct question term in the same chunk. Default 0.3; 0 off. */
  proximityBonus?: number;
  /**
   * Share of its score a chunk keeps when it reads like a bibliography entry ("Retrieved 12 May
   * 2017", "ISBN"): reference lists repeat the page's words in every cited title. Default 0.1; 1 off.
   */
  citationWeight?: number;
}

const hasDigit = /\d/;
// Terms (and questions) a scorer remembers; past this many it starts again.
const maxRememberedTerms = 2000;

interface TermOccurrences {
  /** Chunks holding the term, in order. */
  touched: number[];
  /** How often, per touched chunk. */
  counts: Float64Array;
}

/**
 * BM25 of chunks of one text against a question, without tokenising the text: each question
 * term is found with indexOf in the lower-cased text, so a megabyte page is scored in a few
 * milliseconds. A term matches at a word start and may carry a short inflection ("direct" finds
 * "directed", "director"); terms with digits match whole words only ("15" never finds "150").
 */
export function createLexicalChunkScorer(
  text: string,
  chunks: readonly TextChunk[],
  options: LexicalChunkScorerOptions = {},
): LexicalChunkScorer {
  const k1 = options.k1 ?? bm25Defaults.k1;
  const b = options.b ?? bm25Defaults.b;
  const lower = text.toLowerCase();
  // toLowerCase keeps offsets for all but a few characters; fall back to a per-chunk view if not.
  const aligned = lower.length === text.length;
  // Plain loops: typed-array .from() with a map function is many times slower in V8.
  const starts = new Int32Array(chunks.length);
  const lengths = new Float64Array(chunks.length);
  let totalLength = 0;
  for (let index = 0; index < chunks.length; index++) {
    const chunk = chunks[index]!;
    starts[index] = chunk.start;
    lengths[index] = Math.max(1, chunk.end - chunk.start);
    totalLength += lengths[index]!;
  }
  const averageLength = totalLength / Math.max(1, chunks.length);
  const topic = text.slice(0, options.topicChars ?? 200);
  const cueBonus = options.answerCueBonus ?? 0.6;
  const proximityBonus = options.proximityBonus ?? 0.3;
  const citationWeight = options.citationWeight ?? 0.1;
  // Per chunk, computed on first need and kept: the agent scores a page again at every step, and
  // multi-hop expansion scores it once per name.
  const citations = new Int8Array(chunks.length).fill(-1);
  const cueStrengths = new Map<AnswerCue, Float64Array>();
  const isCitation = (index: number) => {
    if (citations[index] === -1) citations[index] = looksLikeCitation(chunks[index]!.text) ? 1 : 0;
    return citations[index] === 1;
  };
  const cueStrength = (cue: AnswerCue, index: number) => {
    let strengths = cueStrengths.get(cue);
    if (!strengths) {
      strengths = new Float64Array(chunks.length).fill(-1);
      cueStrengths.set(cue, strengths);
    }
    if (strengths[index] === -1) strengths[index] = cue(chunks[index]!.text);
    return strengths[index]!;
  };
  const found = new Map<string, TermOccurrences>();
  let lowerChunks: string[] | undefined;
  const occurrences = (term: string): TermOccurrences => {
    let known = found.get(term);
    if (!known) {
      if (found.size >= maxRememberedTerms) found.clear();
      const counts = new Float64Array(chunks.length);
      let touched: number[];
      if (aligned) touched = countInText(lower, term, starts, counts);
      else {
        lowerChunks ??= chunks.map((chunk) => chunk.text.toLowerCase());
        touched = countInChunks(lowerChunks, term, counts);
      }
      known = { touched, counts: Float64Array.from(touched, (chunk) => counts[chunk]!) };
      found.set(term, known);
    }
    return known;
  };
  const questions = new Map<string, WeightedTerm[]>();
  const termsFor = (question: string) => {
    let terms = questions.get(question);
    if (!terms) {
      if (questions.size >= maxRememberedTerms) questions.clear();
      terms = weightedQuestionTerms(question, { topic });
      questions.set(question, terms);
    }
    return terms;
  };
  return {
    chunksWith: (term) => occurrences(term).touched,
    score(question) {
      const scores = new Float64Array(chunks.length);
      if (chunks.length === 0) return scores;
      const distinct = new Float64Array(chunks.length);
      for (const { term, weight } of termsFor(question)) {
        const { touched, counts } = occurrences(term);
        addTermScores({ scores, counts, touched, lengths, averageLength, k1, b, weight });
        for (const chunk of touched) distinct[chunk]!++;
      }
      applyProximity(scores, distinct, proximityBonus);
      const cue = cueBonus > 0 ? answerCueFor(question) : undefined;
      for (let index = 0; index < scores.length; index++) {
        if (scores[index] === 0) continue;
        if (cue) scores[index]! *= 1 + cueBonus * cueStrength(cue, index);
        if (citationWeight < 1 && isCitation(index)) scores[index]! *= citationWeight;
      }
      return scores;
    },
  };
}

/**
 * Several distinct question terms close together (in one chunk) say more than one term repeated:
 * with topic terms weighing little, this is what finds "Jeremy ... voiced by" on a page where
 * the show's name is everywhere.
 */
function applyProximity(scores: Float64Array, distinct: Float64Array, bonus: number): void {
  if (bonus <= 0) return;
  for (let index = 0; index < scores.length; index++)
    if (distinct[index]! > 1) scores[index]! *= 1 + bonus * (distinct[index]! - 1);
}

function addTermScores(input: {
  scores: Float64Array;
  /** Occurrences in each touched chunk, in the order of `touched`. */
  counts: Float64Array;
  touched: readonly number[];
  lengths: Float64Array;
  averageLength: number;
  k1: number;
  b: number;
  weight: number;
}): void {
  const { scores, counts, touched, lengths, averageLength, k1, b, weight } = input;
  const df = touched.length;
  if (df === 0) return;
  const idf = weight * bm25Idf(scores.length, df);
  for (let at = 0; at < touched.length; at++) {
    const chunk = touched[at]!;
    const norm = bm25LengthNorm(lengths[chunk]!, averageLength, k1, b);
    scores[chunk]! += idf * bm25TermWeight(counts[at]!, norm, k1);
  }
}

/** Adds occurrences of `term` per chunk into `counts`; returns the chunks touched, in order. */
function countInText(lower: string, term: string, starts: Int32Array, counts: Float64Array): number[] {
  const touched: number[] = [];
  const matcher = createTermMatcher(term);
  let chunk = 0;
  for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + term.length)) {
    if (!matcher(lower, at)) continue;
    while (chunk + 1 < starts.length && starts[chunk + 1]! <= at) chunk++;
    if (counts[chunk] === 0) touched.push(chunk);
    counts[chunk]!++;
  }
  return touched;
}

function countInChunks(lowerChunks: readonly string[], term: string, counts: Float64Array): number[] {
  const touched: number[] = [];
  const matcher = createTermMatcher(term);
  lowerChunks.forEach((lower, index) => {
    for (let at = lower.indexOf(term); at !== -1; at = lower.indexOf(term, at + term.length)) {
      if (!matcher(lower, at)) continue;
      if (counts[index] === 0) touched.push(index);
      counts[index]!++;
    }
  });
  return touched;
}

/** Whether an indexOf hit of the term at `at` is a word (or an inflection of it). */
function createTermMatcher(term: string): (lower: string, at: number) => boolean {
  if (cjkPattern.test(term)) return () => true;
  const maxSuffix = hasDigit.test(term) ? 0 : term.length <= 3 ? 1 : 4;
  return (lower, at) => {
    if (at > 0 && isWordCode(lower.charCodeAt(at - 1))) return false;
    let end = at + term.length;
    const limit = end + maxSuffix;
    while (end < lower.length && isWordCode(lower.charCodeAt(end))) {
      if (++end > limit) return false;
    }
    return true;
  };
}

/**
 * BM25 of many short documents (URL titles and snippets) against a query, scaled to [0, 1] by the
 * best: the documents are joined into one text and scored as its chunks, so ten thousand cost
 * one lower-casing and one indexOf pass per query term.
 */
export function scoreDocumentsLexically(query: string, documents: readonly string[]): Float64Array {
  const chunks: TextChunk[] = [];
  let offset = 0;
  for (const text of documents) {
    chunks.push({ start: offset, end: offset + text.length, text });
    offset += text.length + 1;
  }
  const scores = createLexicalChunkScorer(documents.join('\n'), chunks, {
    topicChars: 0,
    answerCueBonus: 0,
    proximityBonus: 0,
    citationWeight: 1,
  }).score(query);
  let max = 0;
  for (const score of scores) max = Math.max(max, score);
  if (max > 0) for (let index = 0; index < scores.length; index++) scores[index]! /= max;
  return scores;
}

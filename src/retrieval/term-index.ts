import { bm25Defaults, bm25Idf, bm25LengthNorm, bm25TermWeight } from './bm25.js';
import { Int32Arena } from './int32-arena.js';
import { TermWords } from './term-words.js';
import { termsOf } from './tokenize.js';
import { appendWordIds } from './word-ids.js';
import { WordTable } from './word-table.js';

/**
 * Short texts (URL titles, snippets, anchor text) as arrays of word ids, so a query is scored by
 * one pass over integers instead of a search through megabytes of text. The agent ranks the same
 * growing set of URLs at every step: each text is tokenised once (the caller keeps its
 * TokenisedText), and only new URLs cost anything.
 */
export interface TokenisedText {
  ids: Int32Array;
  /** Characters in the text: the BM25 length, as the chunk scorer counts it. */
  length: number;
}

export interface TermIndex {
  /** Parts are read as one text with a space between them, without joining them. */
  tokenise(text: string | readonly string[]): TokenisedText;
  /** BM25 of each text against the query, scaled to [0, 1] by the best. */
  score(query: string, texts: readonly TokenisedText[]): Float64Array;
  /** Distinct words seen: a long-lived index is replaced once this grows too large. */
  readonly size: number;
}

/**
 * Texts are only interned word by word while tokenised; the words of each query term are found
 * when it is scored (see TermWords).
 */
export function createTermIndex(): TermIndex {
  const table = new WordTable();
  const arena = new Int32Arena();
  const termWords = new TermWords(table.words);
  return {
    get size() {
      return table.size;
    },
    tokenise(text) {
      let length = 0;
      if (typeof text === 'string') {
        appendWordIds(table, text, arena);
        length = text.length;
      } else {
        for (let index = 0; index < text.length; index++) {
          appendWordIds(table, text[index]!, arena);
          length += text[index]!.length;
        }
        length += Math.max(0, text.length - 1);
      }
      return { ids: arena.take(), length };
    },
    score(query, texts) {
      const terms = [...new Set(termsOf(query))];
      // Term number + 1 per word id (0: none): an array read per word, no hashing.
      const termOf = new Int32Array(table.size);
      terms.forEach((term, termIndex) => {
        for (const id of termWords.matching(term)) if (termOf[id] === 0) termOf[id] = termIndex + 1;
      });
      return bm25(texts, termOf, terms.length);
    },
  };
}

function bm25(texts: readonly TokenisedText[], termOf: Int32Array, termCount: number): Float64Array {
  const { k1, b } = bm25Defaults;
  const scores = new Float64Array(texts.length);
  if (termCount === 0 || texts.length === 0) return scores;
  const frequencies = new Float64Array(texts.length * termCount);
  const documentFrequency = new Float64Array(termCount);
  let totalLength = 0;
  texts.forEach((text, textIndex) => {
    totalLength += Math.max(1, text.length);
    const row = textIndex * termCount;
    const ids = text.ids;
    for (let at = 0; at < ids.length; at++) {
      const term = termOf[ids[at]!]! - 1;
      if (term < 0) continue;
      if (frequencies[row + term] === 0) documentFrequency[term]!++;
      frequencies[row + term]!++;
    }
  });
  const idf = documentFrequency.map((df) => bm25Idf(texts.length, df));
  const averageLength = totalLength / texts.length;
  let max = 0;
  texts.forEach((text, textIndex) => {
    const norm = bm25LengthNorm(Math.max(1, text.length), averageLength, k1, b);
    let score = 0;
    for (let term = 0; term < termCount; term++) {
      const frequency = frequencies[textIndex * termCount + term]!;
      if (frequency > 0) score += idf[term]! * bm25TermWeight(frequency, norm, k1);
    }
    scores[textIndex] = score;
    if (score > max) max = score;
  });
  if (max > 0) for (let index = 0; index < scores.length; index++) scores[index]! /= max;
  return scores;
}

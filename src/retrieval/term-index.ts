import { termsOf, tokenize } from './tokenize.js';
import { hashWord, hashWordStep, WordTable, wordHashSeed } from './word-table.js';

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
  tokenise(text: string): TokenisedText;
  /** BM25 of each text against the query, scaled to [0, 1] by the best. */
  score(query: string, texts: readonly TokenisedText[]): Float64Array;
  /** Distinct words seen: a long-lived index is replaced once this grows too large. */
  readonly size: number;
}

const cjkStart = 0x2e80;
const letterOrDigit = /[\p{L}\p{N}]/u;
const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * A query term matches a word as in the chunk scorer: at its start, with a short inflection
 * ("direct" finds "directed", "director"), numbers whole. So each word is also filed under its
 * prefixes up to four characters shorter, and a term's words are one lookup away.
 */
export function createTermIndex(): TermIndex {
  const table = new WordTable();
  const byPrefix = new Map<string, number[]>();
  const intern = (text: string, start: number, end: number, hash: number): number => {
    const known = table.size;
    const id = table.intern(text, start, end, hash);
    if (id === known) {
      const word = table.words[id]!;
      for (let cut = 0; cut <= 4 && word.length - cut >= 1; cut++) {
        const prefix = cut === 0 ? word : word.slice(0, word.length - cut);
        const list = byPrefix.get(prefix);
        if (list) list.push(id);
        else byPrefix.set(prefix, [id]);
      }
    }
    return id;
  };
  return {
    get size() {
      return table.size;
    },
    tokenise(text) {
      let count = 0;
      forEachWord(text.toLowerCase(), (lower, start, end, hash) => {
        if (count === idBuffer.length) idBuffer = growBuffer(idBuffer);
        idBuffer[count++] = intern(lower, start, end, hash);
      });
      return { ids: idBuffer.slice(0, count), length: text.length };
    },
    score(query, texts) {
      const terms = [...new Set(termsOf(query))];
      // Term number + 1 per word id (0: none): an array read per word, no hashing.
      const termOf = new Int32Array(table.size);
      terms.forEach((term, termIndex) => {
        const limit = term.length + (/\d/.test(term) ? 0 : term.length <= 3 ? 1 : 4);
        for (const id of byPrefix.get(term) ?? []) {
          if (table.words[id]!.length <= limit && termOf[id] === 0) termOf[id] = termIndex + 1;
        }
      });
      return bm25(texts, termOf, terms.length);
    },
  };
}

// Word ids of the text being tokenised; reused, since a text's ids are copied out at the end.
let idBuffer: Int32Array<ArrayBuffer> = new Int32Array(256);

function growBuffer(buffer: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(buffer.length * 2);
  grown.set(buffer);
  return grown;
}

type WordVisitor = (text: string, start: number, end: number, hash: number) => void;

/** Words of lower-cased text, scanned by char code and hashed on the way (no substrings). */
function forEachWord(lower: string, visit: WordVisitor): void {
  let start = -1;
  let hash = wordHashSeed;
  let cjkSeen = false;
  for (let index = 0; index <= lower.length; index++) {
    const code = index < lower.length ? lower.charCodeAt(index) : 32;
    const isWord =
      code < 128
        ? (code >= 97 && code <= 122) || (code >= 48 && code <= 57)
        : letterOrDigit.test(lower[index]!);
    if (isWord) {
      if (start === -1) {
        start = index;
        hash = wordHashSeed;
        cjkSeen = false;
      }
      hash = hashWordStep(hash, code);
      if (code >= cjkStart) cjkSeen = true;
      continue;
    }
    if (start === -1) continue;
    // CJK runs become the bigrams question terms are made of.
    if (cjkSeen && hasCjk(lower.slice(start, index)))
      for (const token of tokenize(lower.slice(start, index))) visit(token, 0, token.length, hashWord(token));
    else visit(lower, start, index, hash);
    start = -1;
  }
}

function hasCjk(word: string): boolean {
  for (let index = 0; index < word.length; index++)
    if (word.charCodeAt(index) >= cjkStart) return cjk.test(word);
  return false;
}

function bm25(texts: readonly TokenisedText[], termOf: Int32Array, termCount: number): Float64Array {
  const k1 = 1.2;
  const b = 0.75;
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
  const idf = documentFrequency.map((df) =>
    df === 0 ? 0 : Math.log(1 + (texts.length - df + 0.5) / (df + 0.5)),
  );
  const averageLength = totalLength / texts.length;
  let max = 0;
  texts.forEach((text, textIndex) => {
    const norm = k1 * (1 - b + (b * Math.max(1, text.length)) / averageLength);
    let score = 0;
    for (let term = 0; term < termCount; term++) {
      const frequency = frequencies[textIndex * termCount + term]!;
      if (frequency > 0) score += idf[term]! * ((frequency * (k1 + 1)) / (frequency + norm));
    }
    scores[textIndex] = score;
    if (score > max) max = score;
  });
  if (max > 0) for (let index = 0; index < scores.length; index++) scores[index]! /= max;
  return scores;
}

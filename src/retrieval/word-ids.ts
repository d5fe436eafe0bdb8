import type { Int32Arena } from './int32-arena.js';
import { cjkPattern, isWordCode, tokenize } from './tokenize.js';
import { asciiDigits, type WordTable } from './word-table.js';

const cjkStart = 0x2e80;
const capitalSigma = '\u03a3';

/**
 * Appends the ids of the words tokenize() finds in `text`: letters and digits lower-cased, CJK
 * runs as bigrams. Most text is ASCII, so runs of ASCII letters and digits are lower-cased by char
 * code, hashed and interned while scanned, with no toLowerCase() of the text and no substring.
 * A run holding other characters is lower-cased on its own and scanned as before. Runs end at
 * ASCII characters other than letters and digits, which lower-casing neither makes nor moves, so
 * the words are those of the whole lower-cased text; the one exception is a capital sigma, whose
 * lower case depends on the letters around it: a text holding one is lower-cased whole.
 */
export function appendWordIds(table: WordTable, text: string, out: Int32Arena): void {
  const first = out.pushed;
  const length = text.length;
  let index = 0;
  while (index < length) {
    // A word digit (see asciiDigits), 0 for an ASCII character that ends a word, -1 for any other.
    let digit = wordDigit(text.charCodeAt(index));
    if (digit === 0) {
      index++;
      continue;
    }
    const start = index;
    let key = 0;
    let ascii = true;
    for (;;) {
      if (digit > 0) key = key * 37 + digit;
      else if (digit < 0) ascii = false;
      else break;
      if (++index === length) break;
      digit = wordDigit(text.charCodeAt(index));
    }
    if (ascii) {
      out.push(table.internAscii(key, text, start, index));
      continue;
    }
    const run = text.slice(start, index);
    if (run.includes(capitalSigma)) {
      out.truncate(first);
      appendLowerCaseWordIds(table, text.toLowerCase(), out);
      return;
    }
    appendLowerCaseWordIds(table, run.toLowerCase(), out);
  }
}

function wordDigit(code: number): number {
  return code < 128 ? asciiDigits[code]! : -1;
}

/** Words of lower-cased text, as tokenize() finds them. */
function appendLowerCaseWordIds(table: WordTable, lower: string, out: Int32Arena): void {
  let start = -1;
  let cjkSeen = false;
  for (let index = 0; index <= lower.length; index++) {
    const code = index < lower.length ? lower.charCodeAt(index) : 32;
    if (isWordCode(code)) {
      if (start === -1) {
        start = index;
        cjkSeen = false;
      }
      if (code >= cjkStart) cjkSeen = true;
      continue;
    }
    if (start === -1) continue;
    // CJK runs become the bigrams question terms are made of.
    if (cjkSeen && hasCjk(lower.slice(start, index)))
      for (const token of tokenize(lower.slice(start, index))) out.push(table.intern(token, 0, token.length));
    else out.push(table.intern(lower, start, index));
    start = -1;
  }
}

function hasCjk(word: string): boolean {
  for (let index = 0; index < word.length; index++)
    if (word.charCodeAt(index) >= cjkStart) return cjkPattern.test(word);
  return false;
}

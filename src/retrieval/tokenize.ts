const wordPattern = /[\p{L}\p{N}]+/gu;
const letterOrDigit = /[\p{L}\p{N}]/u;
/** A Chinese, Japanese or Korean character: such runs have no spaces and become bigrams. */
export const cjkPattern = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Whether a UTF-16 code unit is part of a word, as wordPattern reads words: a letter or digit. */
export function isWordCode(code: number): boolean {
  if (code < 128)
    return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
  return letterOrDigit.test(String.fromCharCode(code));
}

const stopwords = new Set(
  (
    'a an and are as at be but by for from has have how i in is it its of on or that the this to was were what ' +
    'when where which who whom whose why will with do does did done get got they them their there out up into ' +
    'than then so can could would should been being had not also de la le les des du un une et en est que qui ' +
    'der die das und ' +
    'ist von zu el los las y es por para del il di che e o do da em os as'
  ).split(' '),
);

/**
 * Lower-cased word tokens, numbers kept ("iPhone 15" ≠ "iPhone 16"). Runs of CJK characters,
 * which have no spaces, become overlapping character bigrams.
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.toLowerCase().matchAll(wordPattern)) {
    const word = match[0];
    if (cjkPattern.test(word)) pushCjkBigrams(word, tokens);
    else tokens.push(word);
  }
  return tokens;
}

/** Tokens worth searching for, unstemmed (for engines that stem themselves, like FTS5's porter). */
export function searchWordsOf(text: string): string[] {
  return tokenize(text).filter((token) => !stopwords.has(token) && !isLoneLetter(token));
}

/**
 * Tokens for matching: stopwords and lone letters (the "s" of "Grey's") dropped, light suffix
 * stemming so "directed" meets "director".
 */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    if (stopwords.has(token) || isLoneLetter(token)) continue;
    terms.push(stem(token));
  }
  return terms;
}

/** A deliberately light stemmer: strips common English inflections, leaves short words alone. */
export function stem(word: string): string {
  if (word.length <= 4 || /\d/.test(word)) return word;
  for (const suffix of [
    'ations',
    'ation',
    'ings',
    'ing',
    'ies',
    'ed',
    'ors',
    'or',
    'ers',
    'er',
    'es',
    's',
    'ly',
  ]) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) {
      return suffix === 'ies' ? `${word.slice(0, -3)}y` : word.slice(0, -suffix.length);
    }
  }
  return word;
}

function isLoneLetter(token: string): boolean {
  return token.length === 1 && !(token >= '0' && token <= '9') && !cjkPattern.test(token);
}

function pushCjkBigrams(word: string, tokens: string[]): void {
  const chars = [...word];
  if (chars.length === 1) {
    tokens.push(word);
    return;
  }
  for (let index = 0; index < chars.length - 1; index++) tokens.push(chars[index]! + chars[index + 1]!);
}

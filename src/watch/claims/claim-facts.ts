import { stem, tokenize } from '../../retrieval/tokenize.js';

/** What a claim states, taken apart: its values (each normalised and as written) and its words. */
export interface ClaimFacts {
  /** Numbers with their unit, normalised ("$1.2 million" and "$1,200,000" → "$1200000"). */
  numbers: Fact[];
  /** Dates as far as they are given: "2026-03-03", "2026-03" or "2026". */
  dates: Fact[];
  /** Capitalised words that are not the usual first word of a sentence, lower-cased. */
  names: Fact[];
  /** Status words ("approved", "pending", "in force"...), negated ones as "not approved". */
  status: Fact[];
  /** Stemmed content words (stopwords, numbers and the words of dates left out). */
  terms: Set<string>;
  /** The sentence's words with each date and number as a placeholder: two claims with one template say one thing. */
  template: string;
}

export interface Fact {
  value: string;
  /** For a number: the stem of the word after it when that word names what is counted ("employees"). */
  unit?: string;
  /** The text it was read from, to show the reader. */
  written: string;
}

const months = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const monthPattern =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const datePatterns: Array<[RegExp, (match: RegExpExecArray) => string]> = [
  [/\b(\d{4})-(\d{2})-(\d{2})\b/g, (m) => `${m[1]}-${m[2]}-${m[3]}`],
  [
    new RegExp(`\\b${monthPattern}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'),
    (m) => isoDay(m[2]!, monthOf(m[0]), m[1]!),
  ],
  [
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${monthPattern},?\\s+(\\d{4})\\b`, 'gi'),
    (m) => isoDay(m[2]!, monthOf(m[0].replace(/^\d+\S*\s+(of\s+)?/i, '')), m[1]!),
  ],
  [new RegExp(`\\b${monthPattern}\\s+(\\d{4})\\b`, 'gi'), (m) => `${m[1]}-${pad(monthOf(m[0]))}`],
  [/\b(1[89]\d\d|2[01]\d\d)\b(?![.,]\d)(?!\s*(?:%|percent))/g, (m) => m[1]!],
];

const scaleWords: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  m: 1e6,
  mn: 1e6,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
  tn: 1e12,
};
const numberWords: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  dozen: 12,
  twenty: 20,
  hundred: 100,
};
const numberPattern =
  /([$€£¥]|\b(?:usd|eur|gbp)\s?)?(\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s*(thousand|million|billion|trillion|bn|mn|tn|[kmb])\b)?(\s*(?:%|percent\b|per\s?cent\b))?/gi;
const numberWordPattern = new RegExp(`\\b(${Object.keys(numberWords).join('|')})\\b`, 'gi');

/**
 * Status words: what state a thing is in. A change between two of them is a change of status;
 * the same word with "not" before it is one too.
 */
const statusWords = new Set(
  (
    'approved rejected pending proposed draft adopted enacted repealed passed vetoed signed ratified ' +
    'suspended cancelled canceled postponed delayed extended closed open opened reopened active inactive ' +
    'discontinued deprecated retired released launched withdrawn recalled banned legal illegal available ' +
    'unavailable resigned elected appointed dismissed acquired merged bankrupt alive dead ongoing completed ' +
    'halted terminated paused resumed expired valid invalid upheld overturned dismissed confirmed denied ' +
    'end-of-life maintenance supported unsupported stable beta preview'
  ).split(' '),
);
const statusPhrases = ['in force', 'in effect', 'no longer', 'end of life', 'under review', 'on hold'];
const negations = /\b(?:not|never|no longer|n't|cannot|neither|nor)\b/i;

/** Words that start sentences in capitals without being names. */
const sentenceStarters = new Set(
  (
    'the a an its it this that these those there their his her our in on at for from by with after before ' +
    'since about roughly around some most many each every all both as when while if according shares'
  ).split(' '),
);

/** The facts of one claim's text. */
export function claimFacts(text: string): ClaimFacts {
  let rest = text;
  const dates: Fact[] = [];
  for (const [pattern, value] of datePatterns) {
    rest = rest.replace(pattern, (...args) => {
      const match = args.slice(0, -2) as unknown as RegExpExecArray;
      match.index = 0;
      dates.push({ value: value(match), written: match[0] });
      return ' \u0001date ';
    });
  }
  const numbers: Fact[] = [];
  rest = rest.replace(
    numberPattern,
    (written, currency, digits, scale, percent, offset: number, whole: string) => {
      const value =
        Number(String(digits).replace(/,/g, '')) * (scale ? (scaleWords[scale.toLowerCase()] ?? 1) : 1);
      const sign = percent ? '%' : currency ? currencyOf(currency) : '';
      const unit = countedWord(whole.slice(offset + written.length));
      numbers.push({
        value: `${sign}${roundValue(value)}`,
        written: written.trim(),
        ...(unit ? { unit } : {}),
      });
      return ' \u0001number ';
    },
  );
  rest = rest.replace(numberWordPattern, (written) => {
    numbers.push({ value: String(numberWords[written.toLowerCase()]), written });
    return ' \u0001number ';
  });
  const template = tokenize(rest.replace(/\u0001/g, '')).join(' ');
  rest = rest.replace(/\u0001(?:date|number)/g, ' ');
  const status = statusOf(text);
  const statusTerms = new Set(status.flatMap(({ value }) => value.split(' ').map(stem)));
  const terms = new Set<string>();
  for (const token of tokenize(rest)) {
    if (token.length < 2 || stopword(token)) continue;
    const term = stem(token);
    if (!statusTerms.has(term)) terms.add(term);
  }
  return { numbers, dates, names: namesOf(rest), status, terms, template };
}

/** The stem of the word right after a number, when it is a content word: what the number counts. */
function countedWord(after: string): string | undefined {
  const word = /^\s+([a-z][a-z-]+)/i.exec(after)?.[1]?.toLowerCase();
  return word && !stopword(word) && !statusWords.has(word) ? stem(word) : undefined;
}

function statusOf(text: string): Fact[] {
  const lower = text.toLowerCase();
  const negated = negations.test(lower);
  const found: Fact[] = [];
  for (const phrase of statusPhrases)
    if (lower.includes(phrase)) found.push({ value: phrase, written: phrase });
  for (const match of lower.matchAll(/[a-z][a-z-]+/g)) {
    if (statusWords.has(match[0])) found.push({ value: match[0], written: match[0] });
  }
  if (negated && !found.some(({ value }) => value === 'no longer')) {
    const word = lower.match(negations)![0];
    return found.length > 0
      ? found.map(({ value, written }) => ({ value: `not ${value}`, written: `${word} … ${written}` }))
      : [{ value: 'not', written: word }];
  }
  return found;
}

function namesOf(text: string): Fact[] {
  const names: Fact[] = [];
  for (const match of text.matchAll(/\b\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*)*/gu)) {
    const words = match[0]
      .split(/\s+/)
      .map((word) => word.replace(/['’]s$|[.'’-]+$/, ''))
      .filter(
        (word) => word && !sentenceStarters.has(word.toLowerCase()) && !months.includes(word.toLowerCase()),
      );
    if (words.length === 0) continue;
    const name = words.join(' ');
    names.push({ value: name.toLowerCase(), written: name });
  }
  return names;
}

function stopword(token: string): boolean {
  return /^\d/.test(token) || sentenceStarters.has(token) || commonWords.has(token);
}

const commonWords = new Set(
  (
    'a an and are as at be but by for from has have is it its of on or that the to was were will with ' +
    'been being had not also than then so can could would should which who whom whose what when where ' +
    'how why per about some more most up into out over under after before since until via its they them ' +
    'their there here he she his her we our you your'
  ).split(' '),
);

function currencyOf(symbol: string): string {
  const lower = symbol.trim().toLowerCase();
  return lower === 'usd' ? '$' : lower === 'eur' ? '€' : lower === 'gbp' ? '£' : lower;
}

function roundValue(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(6)));
}

function monthOf(text: string): number {
  const lower = text.toLowerCase();
  return months.findIndex((month) => lower.startsWith(month.slice(0, 3))) + 1;
}

function pad(value: number | string): string {
  return String(value).padStart(2, '0');
}

function isoDay(year: string, month: number, day: string): string {
  return `${year}-${pad(month)}-${pad(day)}`;
}

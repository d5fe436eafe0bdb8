import { connectors } from './entity-expansion.js';

// A name may hold entity-expansion's connectors ("University of Oxford"), but never opens with one
// (except "The": "The Beatles"). Capitalised sentence openers that are not names:
const openers = new Set([
  'a',
  'an',
  'he',
  'she',
  'it',
  'its',
  'his',
  'her',
  'they',
  'their',
  'we',
  'our',
  'you',
  'this',
  'these',
  'those',
  'that',
  'there',
  'here',
  'in',
  'on',
  'at',
  'after',
  'before',
  'during',
  'when',
  'while',
  'since',
  'as',
  'for',
  'from',
  'by',
  'with',
  'of',
  'and',
  'but',
  'if',
  'some',
  'many',
  'most',
  'one',
]);
const capitalised = /^[\p{Lu}\p{N}][\p{L}\p{M}\p{N}'’.&-]*$/u;
const hasLetter = /\p{L}/u;
// Where the name stops: a bracket (dates, other names), a comma (an apposition), or the verb that
// says what the subject is or did.
const nameEnd = /\s\(|,|\s(?:is|was|are|were|has|had)\s/;
const maxNameWords = 8;

/**
 * The subject a sentence opens with, when it opens with a name: "Kansas Song is a fight song…" →
 * "Kansas Song"; "Henry Roth (February 8, 1906 – …) was…" → "Henry Roth". The words before the
 * first bracket, comma or "is/was/are/were/has/had", at most eight, each capitalised (or a number,
 * or a connector inside the name), not a pronoun or a preposition opening the sentence. Returns
 * the name's length in characters from the sentence's start (after leading spaces), or 0.
 * An untitled block that opens this way is about that name, as a titled block is about its title
 * (pack-sentences.ts keeps it with the block's other sentences).
 */
export function openingNameLength(sentence: string): number {
  const lead = sentence.length - sentence.trimStart().length;
  const body = sentence.slice(lead, lead + 200);
  const end = nameEnd.exec(body);
  if (!end || end.index === 0) return 0;
  const name = body.slice(0, end.index).trimEnd();
  const words = name.split(/\s+/);
  if (words.length > maxNameWords) return 0;
  const first = words[0]!;
  if (openers.has(first.toLowerCase()) || !capitalised.test(first)) return 0;
  if (first.toLowerCase() === 'the' && words.length === 1) return 0;
  let letters = false;
  for (const word of words) {
    const isConnector = connectors.has(word.toLowerCase()) && word !== first;
    if (!isConnector && !capitalised.test(word)) return 0;
    if (!isConnector && hasLetter.test(word) && word.toLowerCase() !== 'the') letters = true;
  }
  return letters ? lead + name.length : 0;
}

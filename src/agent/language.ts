import { francAll } from 'franc-min';
import { countFunctionWords, functionWordLanguage } from './function-words.js';
import type { LanguageInfo } from './run-context.js';

/** Languages franc may name; a short list avoids naming rare languages for short questions. */
const candidates = [
  'eng',
  'fra',
  'deu',
  'spa',
  'por',
  'ita',
  'nld',
  'rus',
  'ukr',
  'pol',
  'ces',
  'tur',
  'arb',
  'pes',
  'hin',
  'ben',
  'jpn',
  'cmn',
  'kor',
  'vie',
  'ind',
  'tha',
  'swe',
  'dan',
  'nob',
  'fin',
  'ell',
  'heb',
  'ron',
  'hun',
];

// Scripts that name one language (Cyrillic does not: Russian, Ukrainian, Bulgarian, Serbian...).
const scripts: Array<[RegExp, string]> = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'Japanese'],
  [/\p{Script=Hangul}/u, 'Korean'],
  [/\p{Script=Han}/u, 'Chinese'],
  [/[іїєґІЇЄҐ]/u, 'Ukrainian'],
  [/\p{Script=Arabic}/u, 'Arabic'],
  [/\p{Script=Hebrew}/u, 'Hebrew'],
  [/\p{Script=Greek}/u, 'Greek'],
  [/\p{Script=Thai}/u, 'Thai'],
  [/\p{Script=Devanagari}/u, 'Hindi'],
];

/**
 * Names the question's language only when the detection is clear (a wide margin over the runner-up),
 * because a wrong name is worse than none. Otherwise the rule just says "the language of the question".
 */
export function detectLanguage(question: string, configured?: string): LanguageInfo {
  const name = configured ?? guessLanguage(question);
  const rule = name
    ? `Write the answer and all reasoning in ${name}${configured ? '' : ', the language of the question'}.`
    : 'Write the answer and all reasoning in the same language as the question.';
  return { name, rule };
}

function guessLanguage(text: string): string | undefined {
  // Function words decide first: trigrams alone call short English questions French or Dutch.
  const byWords = functionWordLanguage(text);
  if (byWords) return languageName(byWords);
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (letters.length < 12) return scriptLanguage(text);
  const [best, second] = francAll(text, { only: candidates });
  if (!best || best[0] === 'und') return scriptLanguage(text);
  if (second && best[1] - second[1] < 0.1) return scriptLanguage(text);
  // A trigram guess the text's own function words don't support is not clear enough to name.
  const words = countFunctionWords(text);
  if (words.size > 0 && !words.has(best[0])) return scriptLanguage(text);
  return languageName(best[0]);
}

let languageNames: Intl.DisplayNames | undefined;

function languageName(code: string): string | undefined {
  try {
    // Made once: building it loads ICU data and cost more than the run's other language work.
    languageNames ??= new Intl.DisplayNames(['en'], { type: 'language' });
    return languageNames.of(code);
  } catch {
    return undefined;
  }
}

function scriptLanguage(text: string): string | undefined {
  for (const [pattern, name] of scripts) if (pattern.test(text)) return name;
  return undefined;
}

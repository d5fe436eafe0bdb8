import { describe, expect, it } from 'vitest';
import { Int32Arena } from './int32-arena.js';
import { tokenize } from './tokenize.js';
import { appendWordIds } from './word-ids.js';
import { WordTable } from './word-table.js';

function wordsOf(table: WordTable, text: string): string[] {
  const arena = new Int32Arena();
  appendWordIds(table, text, arena);
  return Array.from(arena.take(), (id) => table.words[id]!);
}

describe('appendWordIds', () => {
  it('finds the words tokenize() finds in the lower-cased text, without lower-casing it whole', () => {
    const table = new WordTable();
    for (const text of [
      'The Film WAS directed in 1999, iPhone 15 Pro-Max',
      'Café ÉCOLE naïve ÀÉÎÕÜ Ærø',
      'İstanbul DİYARBAKIR',
      'Straße STRASSE ẞ',
      "ΟΔΥΣΣΕΥΣ ΣΑΣ.Α ΑΣ'Α ΣΑ Σ",
      '東京の天気予報 TOKYO 서울 Weather',
      'don’t “Quoted” em—dash ½ ² Ⅻ',
      'KELVIN \u212a Ångström \u212b',
      'mixed2024Word ABC123def 3.14',
    ])
      expect(wordsOf(table, text), text).toEqual(tokenize(text));
  });

  it('keeps words of up to ten characters and longer ones apart, whatever their case', () => {
    const table = new WordTable();
    const words = wordsOf(
      table,
      'abcdefghij ABCDEFGHIJ abcdefghijk abcdefghijl internationalization INTERNATIONALIZATIONS z9 Z9 9z',
    );
    expect(words).toEqual([
      'abcdefghij',
      'abcdefghij',
      'abcdefghijk',
      'abcdefghijl',
      'internationalization',
      'internationalizations',
      'z9',
      'z9',
      '9z',
    ]);
    expect(table.size).toBe(7);
  });

  it('agrees with tokenize() on random text of ASCII, accented, Greek, Turkish and CJK characters', () => {
    const alphabet = [..."aZz09 -.,'’ÉéİıßẞΣσςΑα東京のㄱ가\u0301\u00ad"];
    let state = 7;
    const random = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const table = new WordTable();
    for (let sample = 0; sample < 300; sample++) {
      const length = Math.floor(random() * 40);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(wordsOf(table, text), JSON.stringify(text)).toEqual(tokenize(text));
    }
  });
});

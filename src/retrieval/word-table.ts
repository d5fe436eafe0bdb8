/**
 * Interns words read straight out of a larger string, with no substring for a word already known.
 * Most words are short runs of ASCII letters and digits; the scanner packs such a word, lower-cased,
 * into a number as it reads it (base 37, a digit per character: see asciiDigits), and up to ten
 * characters that number is exact, so a lookup compares one number and never the characters
 * (comparing them was half the time to tokenise ten thousand URL titles and snippets). Longer
 * words and words with other characters are hashed and compared character by character.
 */
export class WordTable {
  readonly words: string[] = [];
  private slots = new Int32Array(1 << 12).fill(-1);
  // Each slot's key, beside it: an exact ASCII word key (positive), or -1 - the word's hash.
  private slotKeys = new Float64Array(1 << 12);

  get size(): number {
    return this.words.length;
  }

  /**
   * The id of `text.slice(start, end)`, a run of ASCII letters and digits, lower-cased; `key` is
   * its key (see asciiDigits). A new word gets the next id.
   */
  internAscii(key: number, text: string, start: number, end: number): number {
    if (end - start > exactKeyLength) return this.internHashed(text, start, end);
    const mask = this.slots.length - 1;
    for (let slot = mixKey(key) & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === -1) return this.add(slot, key, text.slice(start, end));
      if (this.slotKeys[slot] === key) return id;
    }
  }

  /** The id of `text.slice(start, end)`, any word lower-cased already. */
  intern(text: string, start: number, end: number): number {
    let key = 0;
    for (let index = start; index < end && key >= 0; index++) {
      const code = text.charCodeAt(index);
      // Upper-case letters cannot be here; were one, it would count as its lower case.
      const digit = code < 128 ? asciiDigits[code]! : 0;
      key = digit > 0 ? key * 37 + digit : -1;
    }
    return key >= 0 ? this.internAscii(key, text, start, end) : this.internHashed(text, start, end);
  }

  private internHashed(text: string, start: number, end: number): number {
    let hash = 0x811c9dc5 | 0;
    for (let index = start; index < end; index++)
      hash = Math.imul(hash ^ lowerAsciiCode(text.charCodeAt(index)), 0x01000193);
    const key = -1 - (hash >>> 0);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === -1) return this.add(slot, key, text.slice(start, end));
      if (this.slotKeys[slot] === key && sameWord(this.words[id]!, text, start, end)) return id;
    }
  }

  private add(slot: number, key: number, word: string): number {
    const id = this.words.length;
    // Only ASCII letters can be upper-case here, so toLowerCase() changes nothing else.
    this.words.push(asciiUpper.test(word) ? word.toLowerCase() : word);
    this.slots[slot] = id;
    this.slotKeys[slot] = key;
    if (this.words.length * 2 > this.slots.length) this.grow();
    return id;
  }

  private grow(): void {
    const oldSlots = this.slots;
    const oldKeys = this.slotKeys;
    this.slots = new Int32Array(oldSlots.length * 2).fill(-1);
    this.slotKeys = new Float64Array(oldSlots.length * 2);
    const mask = this.slots.length - 1;
    for (let old = 0; old < oldSlots.length; old++) {
      if (oldSlots[old] === -1) continue;
      const key = oldKeys[old]!;
      let slot = (key > 0 ? mixKey(key) : (-1 - key) | 0) & mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & mask;
      this.slots[slot] = oldSlots[old]!;
      this.slotKeys[slot] = key;
    }
  }
}

// 37 ** 10 < 2 ** 53: keys of words up to ten characters are exact doubles.
const exactKeyLength = 10;

/**
 * Each ASCII character's digit in a word key, 0 for those that end a word: a-z and A-Z count 1 to
 * 26, 0-9 27 to 36. A word's key is built from 0 as key * 37 + digit, a character at a time, so no
 * two words of up to ten characters share one.
 */
export const asciiDigits = new Int8Array(128);
for (let code = 0; code < 26; code++) {
  asciiDigits[97 + code] = code + 1;
  asciiDigits[65 + code] = code + 1;
}
for (let code = 0; code < 10; code++) asciiDigits[48 + code] = 27 + code;

function mixKey(key: number): number {
  const mixed = Math.imul((key | 0) ^ Math.imul((key / 0x100000000) | 0, 0x27d4eb2d), 0x01000193);
  return mixed ^ (mixed >>> 15);
}

/** ASCII A-Z to a-z by char code; any other code unchanged. */
function lowerAsciiCode(code: number): number {
  return code >= 65 && code <= 90 ? code | 0x20 : code;
}

const asciiUpper = /[A-Z]/;

function sameWord(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let index = 0; index < word.length; index++)
    if (word.charCodeAt(index) !== lowerAsciiCode(text.charCodeAt(start + index))) return false;
  return true;
}

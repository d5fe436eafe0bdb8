/**
 * Interns words read straight out of a larger string: the word is hashed while it is scanned and
 * compared in place, so a word already known costs no substring and no Map hashing (that was
 * most of the time to tokenise ten thousand URL titles and snippets).
 */
export class WordTable {
  readonly words: string[] = [];
  private slots = new Int32Array(1 << 12).fill(-1);
  // Each slot's word hash, beside the slot: a probe compares hashes without touching the words.
  private slotHashes = new Int32Array(1 << 12);

  get size(): number {
    return this.words.length;
  }

  /** The id of `text.slice(start, end)`, whose hashWord() is `hash`; a new word gets the next id. */
  intern(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const id = this.slots[slot]!;
      if (id === -1) {
        const added = this.words.length;
        this.words.push(text.slice(start, end));
        this.slots[slot] = added;
        this.slotHashes[slot] = hash;
        if (this.words.length * 2 > this.slots.length) this.grow();
        return added;
      }
      if (this.slotHashes[slot] === hash && sameText(this.words[id]!, text, start, end)) return id;
    }
  }

  private grow(): void {
    const oldSlots = this.slots;
    const oldHashes = this.slotHashes;
    this.slots = new Int32Array(oldSlots.length * 2).fill(-1);
    this.slotHashes = new Int32Array(oldSlots.length * 2);
    const mask = this.slots.length - 1;
    for (let old = 0; old < oldSlots.length; old++) {
      if (oldSlots[old] === -1) continue;
      let slot = oldHashes[old]! & mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & mask;
      this.slots[slot] = oldSlots[old]!;
      this.slotHashes[slot] = oldHashes[old]!;
    }
  }
}

/** FNV-1a over the UTF-16 code units: the same value hashWordStep() builds while scanning. */
export function hashWord(text: string, start = 0, end = text.length): number {
  let hash = wordHashSeed;
  for (let index = start; index < end; index++) hash = hashWordStep(hash, text.charCodeAt(index));
  return hash;
}

export const wordHashSeed = 0x811c9dc5 | 0;

export function hashWordStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, 0x01000193);
}

function sameText(word: string, text: string, start: number, end: number): boolean {
  if (word.length !== end - start) return false;
  for (let index = 0; index < word.length; index++)
    if (word.charCodeAt(index) !== text.charCodeAt(start + index)) return false;
  return true;
}

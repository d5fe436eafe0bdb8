/**
 * Dense ids (0, 1, 2...) for non-negative integer keys such as path prefix hashes, by open
 * addressing over typed arrays: a ranking then counts prefixes in a plain array indexed by id,
 * several times faster than hashing tens of thousands of keys into a Map at every ranking.
 */
export class IntIds {
  private keys = new Int32Array(1 << 12).fill(-1);
  private ids = new Int32Array(1 << 12);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The id of `key`; a new key gets the next id. */
  idOf(key: number): number {
    const mask = this.keys.length - 1;
    for (let slot = key & mask; ; slot = (slot + 1) & mask) {
      const known = this.keys[slot]!;
      if (known === key) return this.ids[slot]!;
      if (known !== -1) continue;
      this.keys[slot] = key;
      this.ids[slot] = this.count;
      if (++this.count * 2 > this.keys.length) this.grow();
      return this.count - 1;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldIds = this.ids;
    this.keys = new Int32Array(oldKeys.length * 2).fill(-1);
    this.ids = new Int32Array(oldKeys.length * 2);
    const mask = this.keys.length - 1;
    for (let old = 0; old < oldKeys.length; old++) {
      const key = oldKeys[old]!;
      if (key === -1) continue;
      let slot = key & mask;
      while (this.keys[slot] !== -1) slot = (slot + 1) & mask;
      this.keys[slot] = key;
      this.ids[slot] = oldIds[old]!;
    }
  }
}

const blockLength = 1 << 16;

/**
 * Small Int32Arrays (a text's word ids, a URL's path prefix ids) cut out of shared blocks:
 * ten thousand records' arrays then cost a view each instead of a buffer each, which was a
 * fifth of the time to tokenise them, most of it in the garbage collector. Values are pushed to
 * the open array and take() closes it; a view keeps its whole block alive.
 */
export class Int32Arena {
  private block = new Int32Array(blockLength);
  private start = 0;
  private end = 0;

  /** Values pushed to the open array. */
  get pushed(): number {
    return this.end - this.start;
  }

  push(value: number): void {
    if (this.end === this.block.length) this.moveOpenArray();
    this.block[this.end++] = value;
  }

  /** Drops the open array's values from `count` on. */
  truncate(count: number): void {
    this.end = Math.min(this.end, this.start + count);
  }

  take(): Int32Array {
    const view = this.block.subarray(this.start, this.end);
    this.start = this.end;
    return view;
  }

  private moveOpenArray(): void {
    const open = this.block.subarray(this.start, this.end);
    this.block = new Int32Array(Math.max(blockLength, open.length * 2));
    this.block.set(open);
    this.start = 0;
    this.end = open.length;
  }
}

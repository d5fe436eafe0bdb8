/**
 * One bit per dimension: whether a unit vector lies above a centre point (the mean of the stored
 * vectors) in that dimension. 768 dimensions fit in 96 bytes, so a 100,000-chunk base's codes are
 * ~10 MB and can be held in memory and scanned in JS in a few milliseconds.
 *
 * The query is not reduced to bits: its score against a code is Σ q_j · (bit_j ? 1 : -1), the
 * dot product of the query with the code's ±1 vector (an asymmetric estimate, far closer to the
 * true cosine ranking than the Hamming distance between two codes). It is read from a table of
 * partial sums per byte of the code, 256 entries each: four table reads per 32 dimensions.
 */

/** 32-bit words per code. */
export function codeWords(dimensions: number): number {
  return Math.ceil(dimensions / 32);
}

/** The code of `vector` (scaled to unit length first) around `centre`, as little-endian bytes. */
export function signCode(vector: Float32Array, centre: Float32Array | undefined): Uint8Array {
  const code = new Uint8Array(codeWords(vector.length) * 4);
  const scale = 1 / (Math.sqrt(dot(vector, vector)) || 1);
  for (let index = 0; index < vector.length; index++) {
    if (vector[index]! * scale > (centre?.[index] ?? 0)) code[index >>> 3]! |= 1 << (index & 7);
  }
  return code;
}

/**
 * The query's table: for byte b of a code and each of its 256 values, Σ ±q_j over the byte's 8
 * dimensions. Built from the value without its lowest set bit, so each entry is one addition.
 */
export function queryTable(query: Float32Array): Float32Array {
  const bytes = codeWords(query.length) * 4;
  const table = new Float32Array(bytes * 256);
  for (let byte = 0; byte < bytes; byte++) {
    const base = byte * 256;
    let allOff = 0;
    for (let bit = 0; bit < 8; bit++) allOff -= query[byte * 8 + bit] ?? 0;
    table[base] = allOff;
    for (let value = 1; value < 256; value++) {
      const lowest = 31 - Math.clz32(value & -value);
      table[base + value] = table[base + (value & (value - 1))]! + 2 * (query[byte * 8 + lowest] ?? 0);
    }
  }
  return table;
}

/**
 * Scores every code (`codes` holds `count` codes of `words` words each, read as little-endian
 * words) against a query table into `scores`; a code whose `skip` entry is true scores -Infinity.
 */
export function scoreCodes(options: {
  codes: Uint32Array;
  count: number;
  words: number;
  table: Float32Array;
  scores: Float32Array;
  skip?: (index: number) => boolean;
}): void {
  const { codes, count, words, table, scores, skip } = options;
  for (let index = 0, offset = 0; index < count; index++, offset += words) {
    if (skip?.(index)) {
      scores[index] = Number.NEGATIVE_INFINITY;
      continue;
    }
    let score = 0;
    for (let word = 0, base = 0; word < words; word++, base += 1024) {
      const bits = codes[offset + word]!;
      score +=
        table[base + (bits & 255)]! +
        table[base + 256 + ((bits >>> 8) & 255)]! +
        table[base + 512 + ((bits >>> 16) & 255)]! +
        table[base + 768 + (bits >>> 24)]!;
    }
    scores[index] = score;
  }
}

/** Indexes of the `limit` highest finite scores (in no particular order), found in linear time. */
export function topIndexes(scores: Float32Array, count: number, limit: number): number[] {
  const values = new Float32Array(count);
  let kept = 0;
  for (let index = 0; index < count; index++) {
    if (scores[index]! > Number.NEGATIVE_INFINITY) values[kept++] = scores[index]!;
  }
  if (kept === 0 || limit <= 0) return [];
  const threshold = kept <= limit ? Number.NEGATIVE_INFINITY : nthLargest(values.subarray(0, kept), limit);
  const found: number[] = [];
  for (let index = 0; index < count; index++) if (scores[index]! > threshold) found.push(index);
  // Scores equal to the threshold fill what is left, first come first.
  for (let index = 0; index < count && found.length < limit; index++) {
    if (scores[index] === threshold && threshold > Number.NEGATIVE_INFINITY) found.push(index);
  }
  return found;
}

/** The n-th largest value (1-based) by quickselect; reorders `values`. */
function nthLargest(values: Float32Array, n: number): number {
  let low = 0;
  let high = values.length - 1;
  const target = n - 1;
  while (low < high) {
    const pivot = values[(low + high) >>> 1]!;
    let left = low;
    let right = high;
    while (left <= right) {
      while (values[left]! > pivot) left++;
      while (values[right]! < pivot) right--;
      if (left <= right) {
        const swap = values[left]!;
        values[left++] = values[right]!;
        values[right--] = swap;
      }
    }
    if (target <= right) high = right;
    else if (target >= left) low = left;
    else break;
  }
  return values[target]!;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index++) sum += a[index]! * b[index]!;
  return sum;
}

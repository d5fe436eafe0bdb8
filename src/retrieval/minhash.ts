/**
 * Near-duplicate text by word shingles: each text becomes the sorted set of its k-word shingles
 * hashed to 32-bit ints, and a MinHash signature of that set. Signatures are compared first (cheap,
 * an estimate of Jaccard similarity), the exact sets only for the pairs that pass.
 */

/** Words per shingle: 4 words are specific enough that two articles on one event share few. */
export const shingleWords = 4;
/** Signature length: the Jaccard estimate's standard error is about 0.5 / √64 ≈ 0.06. */
export const signatureLength = 64;

export interface TextFingerprint {
  /** Distinct shingle hashes, ascending. */
  shingles: Uint32Array;
  /** The least hash of the shingles under each of `signatureLength` hash functions. */
  signature: Uint32Array;
}

const letterOrDigit = /[\p{L}\p{N}]/u;

// One seed per hash function, fixed so that signatures compare across runs.
const seeds = Uint32Array.from({ length: signatureLength }, (_, index) =>
  mix32(0x9e3779b9 + index * 0x85ebca6b),
);

/** Murmur3's finaliser: a cheap bijection on 32-bit ints that spreads every input bit. */
function mix32(value: number): number {
  let hash = value >>> 0;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * Word hashes of the text, lower-cased: runs of letters and digits (any script), so punctuation,
 * markdown marks and whitespace do not change a shingle. FNV-1a over the UTF-16 code units.
 */
function wordHashes(text: string): number[] {
  const hashes: number[] = [];
  let hash = 0x811c9dc5;
  let inWord = false;
  const lower = text.toLowerCase();
  for (let index = 0; index < lower.length; index++) {
    const code = lower.charCodeAt(index);
    const isWordChar =
      (code >= 97 && code <= 122) ||
      (code >= 48 && code <= 57) ||
      (code > 127 && letterOrDigit.test(lower[index]!));
    if (isWordChar) {
      hash = Math.imul(hash ^ code, 0x01000193);
      inWord = true;
    } else if (inWord) {
      hashes.push(hash >>> 0);
      hash = 0x811c9dc5;
      inWord = false;
    }
  }
  if (inWord) hashes.push(hash >>> 0);
  return hashes;
}

/** The text's shingles and signature; a text of fewer words than a shingle has one shingle of them all. */
export function fingerprintText(text: string): TextFingerprint {
  const words = wordHashes(text);
  const count = Math.max(0, words.length - shingleWords + 1) || (words.length ? 1 : 0);
  const all = new Uint32Array(count);
  for (let start = 0; start < count; start++) {
    let hash = 0;
    for (let offset = 0; offset < shingleWords && start + offset < words.length; offset++)
      hash = mix32(Math.imul(hash, 31) + words[start + offset]!);
    all[start] = hash;
  }
  all.sort();
  let distinct = 0;
  for (let index = 0; index < all.length; index++)
    if (index === 0 || all[index] !== all[index - 1]) all[distinct++] = all[index]!;
  const shingles = all.slice(0, distinct);
  const signature = new Uint32Array(signatureLength).fill(0xffffffff);
  for (const shingle of shingles)
    for (let fn = 0; fn < signatureLength; fn++) {
      const value = mix32(shingle ^ seeds[fn]!);
      if (value < signature[fn]!) signature[fn] = value;
    }
  return { shingles, signature };
}

/** The share of signature positions that agree: an estimate of the two sets' Jaccard similarity. */
export function estimateSimilarity(a: TextFingerprint, b: TextFingerprint): number {
  if (a.shingles.length === 0 || b.shingles.length === 0) return 0;
  let same = 0;
  for (let fn = 0; fn < signatureLength; fn++) if (a.signature[fn] === b.signature[fn]) same++;
  return same / signatureLength;
}

export interface Overlap {
  /** |A ∩ B| / |A ∪ B|. */
  jaccard: number;
  /** |A ∩ B| / min(|A|, |B|): the shorter text's share found in the longer. */
  containment: number;
  /** min(|A|, |B|) / max(|A|, |B|). */
  sizeRatio: number;
}

/** Exact overlap of two shingle sets, by one merge of the sorted arrays. */
export function exactOverlap(a: TextFingerprint, b: TextFingerprint): Overlap {
  const left = a.shingles;
  const right = b.shingles;
  if (left.length === 0 || right.length === 0) return { jaccard: 0, containment: 0, sizeRatio: 0 };
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    if (left[i] === right[j]) {
      shared++;
      i++;
      j++;
    } else if (left[i]! < right[j]!) i++;
    else j++;
  }
  const smaller = Math.min(left.length, right.length);
  const larger = Math.max(left.length, right.length);
  return {
    jaccard: shared / (left.length + right.length - shared),
    containment: shared / smaller,
    sizeRatio: smaller / larger,
  };
}

/**
 * Text folded for matching (NFKC, lower case, punctuation dropped, whitespace collapsed), with a
 * map from each folded character back to its offset in the original, so a match can be shown as
 * the exact original text.
 */
export interface FoldedText {
  folded: string;
  offsets: Int32Array;
  /** The text the offsets point into: the input, NFKC-normalised. */
  source: string;
}

const keep = /[\p{L}\p{N}]/u;

export function foldText(text: string): FoldedText {
  const source = text.normalize('NFKC');
  const folded: string[] = [];
  const offsets = new Int32Array(source.length + 1);
  let length = 0;
  let pendingSpace = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index]!;
    if (keep.test(char)) {
      if (pendingSpace && length > 0) {
        folded.push(' ');
        offsets[length++] = index;
      }
      pendingSpace = false;
      const lower = char.toLowerCase();
      folded.push(lower.length === 1 ? lower : char);
      offsets[length++] = index;
    } else {
      pendingSpace = true;
    }
  }
  offsets[length] = source.length;
  return { folded: folded.join(''), offsets: offsets.subarray(0, length + 1), source };
}

/** The span of `source` that `quote` matches once both are folded, or undefined. */
export function locateFolded(
  quote: string,
  source: FoldedText,
  from = 0,
): { start: number; end: number } | undefined {
  const needle = foldText(quote).folded;
  if (needle.length === 0) return undefined;
  const at = source.folded.indexOf(needle, from);
  if (at === -1) return undefined;
  return { start: source.offsets[at]!, end: source.offsets[at + needle.length - 1]! + 1 };
}

export interface TextChunk {
  start: number;
  end: number;
  text: string;
}

/**
 * Cuts text into chunks of about `size` characters, ending each at the last sentence or line
 * break (else word break) in its second half, so chunks rarely split a sentence.
 */
export function chunkText(text: string, size: number): TextChunk[] {
  const chunks: TextChunk[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) end = findBreak(text, start + Math.floor(size / 2), end);
    chunks.push({ start, end, text: text.slice(start, end) });
    start = end;
  }
  return chunks;
}

function findBreak(text: string, from: number, to: number): number {
  let wordBreak = -1;
  for (let index = to; index > from; index--) {
    const char = text[index - 1]!;
    if (
      char === '\n' ||
      ((char === '.' || char === '!' || char === '?' || char === '。') && /\s/.test(text[index] ?? ' '))
    )
      return index;
    if (wordBreak === -1 && /\s/.test(char)) wordBreak = index;
  }
  return wordBreak === -1 ? to : wordBreak;
}

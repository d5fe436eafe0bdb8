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

// Char codes compared directly: this runs over every character of megabyte pages.
const newline = 10;
const sentenceEnds = new Set([46, 33, 63, 0x3002]); // . ! ? 。

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x3000;
}

function findBreak(text: string, from: number, to: number): number {
  let wordBreak = -1;
  for (let index = to; index > from; index--) {
    const code = text.charCodeAt(index - 1);
    if (code === newline) return index;
    if (sentenceEnds.has(code) && (index >= text.length || isSpace(text.charCodeAt(index)))) return index;
    if (wordBreak === -1 && isSpace(code)) wordBreak = index;
  }
  return wordBreak === -1 ? to : wordBreak;
}

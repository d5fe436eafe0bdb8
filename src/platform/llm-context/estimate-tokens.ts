/**
 * A fast token estimate for budgeting prompts before they are sent. Real tokenizers differ by
 * model; this errs on the high side: ~4 characters per token for Latin text, one token per
 * CJK character, and extra for digits and punctuation, which tokenize densely.
 */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  let wide = 0;
  let dense = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x2e80) wide++;
    else if ((code >= 48 && code <= 57) || (code >= 33 && code <= 47) || (code >= 58 && code <= 64)) dense++;
  }
  const narrow = text.length - wide - dense;
  return Math.ceil(narrow / 4 + dense / 2 + wide);
}

/** Cuts text to roughly `maxTokens`, on a line or word boundary when one is near. */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (estimateTokens(text) <= maxTokens) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (estimateTokens(text.slice(0, middle)) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  const cut = text.slice(0, low);
  const boundary = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf(' '));
  return `${boundary > low * 0.8 ? cut.slice(0, boundary) : cut}…`;
}

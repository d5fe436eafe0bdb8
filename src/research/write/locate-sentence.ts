const markers = /\[\^\d+\]/g;

/** The claim a sentence makes, without its footnote markers. */
export function claimText(sentence: string): string {
  return sentence.replace(markers, '').replace(/\s+/g, ' ').trim();
}

/** A key under which a claim counts as already checked in this cycle. */
export function claimKey(sentence: string): string {
  return claimText(sentence)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The footnote numbers a sentence cites. */
export function footnotesOf(sentence: string): number[] {
  return [...new Set([...sentence.matchAll(/\[\^(\d+)\]/g)].map((match) => Number(match[1])))];
}

/**
 * Where a sentence the model copied from the draft is, tolerating different whitespace and
 * footnote markers it left out or moved; undefined when it is not in the text.
 */
export function locateSentence(
  markdown: string,
  sentence: string,
): { start: number; end: number } | undefined {
  const exact = markdown.indexOf(sentence.trim());
  if (exact !== -1) return { start: exact, end: exact + sentence.trim().length };
  const words = claimText(sentence).split(' ').filter(Boolean);
  if (words.length === 0) return undefined;
  const footnote = String.raw`(?:\[\^\d+\])*`;
  const pattern = words.map((word) => escapeRegExp(word)).join(String.raw`${footnote}\s+`);
  const match = new RegExp(`${pattern}${footnote}`).exec(markdown);
  return match ? { start: match.index, end: match.index + match[0].length } : undefined;
}

/** The text with the located sentence replaced (or removed, with the spacing it leaves tidied). */
export function replaceSentence(markdown: string, sentence: string, replacement: string): string | undefined {
  const at = locateSentence(markdown, sentence);
  if (!at) return undefined;
  const before = markdown.slice(0, at.start);
  const after = markdown.slice(at.end);
  if (replacement) return `${before}${replacement}${after}`;
  return `${before.replace(/[ \t]+$/, '')}${before.endsWith('\n') || !before ? after.replace(/^[ \t]+/, '') : after}`
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Every sentence of the prose that cites a source: a claim the fact-check must check, whether or
 * not the model listing claims named it. Headings, tables, lists of sources and code are not prose.
 */
export function citedSentences(markdown: string): string[] {
  const sentences: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || /^\s*(#|\||\[\^\d+\]:|```|~~~)/.test(line)) continue;
    // A sentence ends at . ! or ? (and the markers after it) before a space and a capital,
    // a digit or an opening mark: "3.5 million" and "e.g. this" stay whole.
    const parts = line
      .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')
      .split(/(?<=[.!?](?:\[\^\d+\])*)\s+(?=[\p{Lu}\p{N}"“‘([])/u);
    for (const part of parts) if (/\[\^\d+\]/.test(part) && claimText(part)) sentences.push(part.trim());
  }
  return sentences;
}

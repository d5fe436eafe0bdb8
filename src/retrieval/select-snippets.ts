import { normaliseScores, scoreBm25 } from './bm25.js';
import { chunkText, type TextChunk } from './chunk-text.js';

export interface Snippet {
  start: number;
  end: number;
  text: string;
  score: number;
}

export interface SnippetOptions {
  /** Total characters to keep. */
  budgetChars: number;
  /** Characters per scored chunk. */
  chunkChars?: number;
  /** Characters per window: the unit that is kept contiguous. */
  windowChars?: number;
}

/**
 * Seed 001's selection: fixed-size chunks scored against the question, a sliding-window average
 * over the scores, and the best non-overlapping windows up to the budget, merged where they touch
 * and returned in page order with their offsets. Pages within the budget pass through whole.
 */
export function selectSnippets(question: string, text: string, options: SnippetOptions): Snippet[] {
  if (text.length <= options.budgetChars) return [{ start: 0, end: text.length, text, score: 1 }];
  const chunkChars = options.chunkChars ?? 250;
  const chunks = chunkText(text, chunkChars);
  const scores = normaliseScores(
    scoreBm25(
      question,
      chunks.map((chunk) => chunk.text),
    ),
  );
  return selectFromScores(text, chunks, scores, options);
}

/** The window search on precomputed chunk scores (lexical, embeddings, or a blend). */
export function selectFromScores(
  text: string,
  chunks: readonly TextChunk[],
  scores: readonly number[],
  options: SnippetOptions,
): Snippet[] {
  const chunkChars = options.chunkChars ?? 250;
  const windowChars = Math.min(options.windowChars ?? 1000, options.budgetChars);
  const width = Math.max(1, Math.min(chunks.length, Math.round(windowChars / chunkChars)));
  const windowScores = slidingAverage(scores, width);
  const taken = new Uint8Array(chunks.length);
  const picked: Array<{ first: number; last: number; score: number }> = [];
  let used = 0;
  while (used < options.budgetChars) {
    const best = bestFreeWindow(windowScores, taken, width);
    if (best === -1 || windowScores[best]! <= 0) break;
    let last = best + width - 1;
    // Trim the window so the total stays within budget.
    while (last > best && used + spanLength(chunks, best, last) > options.budgetChars) last--;
    const length = spanLength(chunks, best, last);
    if (used + length > options.budgetChars) break;
    taken.fill(1, best, last + 1);
    picked.push({ first: best, last, score: windowScores[best]! });
    used += length;
  }
  if (picked.length === 0) return [leadingSnippet(text, options.budgetChars)];
  return mergeInPageOrder(text, chunks, picked);
}

function slidingAverage(scores: readonly number[], width: number): number[] {
  const out: number[] = [];
  let sum = 0;
  for (let index = 0; index < scores.length; index++) {
    sum += scores[index]!;
    if (index >= width) sum -= scores[index - width]!;
    if (index >= width - 1) out.push(sum / width);
  }
  return out;
}

function bestFreeWindow(windowScores: readonly number[], taken: Uint8Array, width: number): number {
  let best = -1;
  for (let start = 0; start < windowScores.length; start++) {
    if (best !== -1 && windowScores[start]! <= windowScores[best]!) continue;
    if (taken.subarray(start, start + width).some((flag) => flag === 1)) continue;
    best = start;
  }
  return best;
}

function spanLength(chunks: readonly TextChunk[], first: number, last: number): number {
  return chunks[last]!.end - chunks[first]!.start;
}

function mergeInPageOrder(
  text: string,
  chunks: readonly TextChunk[],
  picked: Array<{ first: number; last: number; score: number }>,
): Snippet[] {
  picked.sort((a, b) => a.first - b.first);
  const snippets: Snippet[] = [];
  for (const { first, last, score } of picked) {
    const start = chunks[first]!.start;
    const end = chunks[last]!.end;
    const previous = snippets.at(-1);
    if (previous && previous.end >= start) {
      previous.end = Math.max(previous.end, end);
      previous.text = text.slice(previous.start, previous.end);
      previous.score = Math.max(previous.score, score);
    } else {
      snippets.push({ start, end, text: text.slice(start, end), score });
    }
  }
  return snippets;
}

function leadingSnippet(text: string, budget: number): Snippet {
  return { start: 0, end: Math.min(text.length, budget), text: text.slice(0, budget), score: 0 };
}

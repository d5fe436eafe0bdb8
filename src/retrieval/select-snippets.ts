import { chunkText, type TextChunk } from './chunk-text.js';
import { createLexicalChunkScorer, type LexicalChunkScorer } from './lexical-chunk-scorer.js';
import { sentencesOfParagraphs } from './pack-sentences.js';
import { blocksOf, type PageBlock } from './page-blocks.js';
import { keepsParagraphs, type ParagraphIndex, selectParagraphsWithHops } from './select-paragraphs.js';
import { bestWholeBlocks, weighSelections } from './weigh-selections.js';

export interface Snippet {
  start: number;
  end: number;
  text: string;
  score: number;
}

export const defaultSnippetChunkChars = 250;
export const defaultWindowChars = 500;

export interface SnippetOptions {
  /** Total characters to keep. */
  budgetChars: number;
  /** Characters per scored chunk. */
  chunkChars?: number;
  /** Characters per window: the unit that is kept contiguous. */
  windowChars?: number;
  /**
   * Weight of the lead prior added to the normalised chunk scores, decaying over the page's first
   * few thousand characters: pages state their key facts first (Wikipedia's lead and infobox,
   * a news article's first paragraph). 0 turns it off. Default 0.5.
   */
  leadWeight?: number;
  /**
   * Multi-hop expansion on pages of blocks (hop-expansion.ts): the names of the best blocks lead
   * to the blocks about them, so a question's second and third hop are kept.
   * Default true (bench:snippets: +0.2 on MuSiQue, HotpotQA up, NQ's one-block pages unchanged).
   */
  expand?: boolean;
  /**
   * Embedding similarity (≥ 0) of each chunk (`chunks`) to the question: scaled by the best and
   * blended half and half with BM25, per chunk for windows, by a paragraph's best chunk for
   * paragraphs.
   */
  semantic?: ArrayLike<number>;
}

const leadDecayChars = 3000;

export interface SnippetSelector {
  /** The chunks windows are made of (and embeddings are computed for). */
  readonly chunks: readonly TextChunk[];
  select(question: string, options: SnippetOptions): Snippet[];
}

/**
 * Snippet selection for one page, its indexes built once on first use and kept for every later
 * question (the agent asks a page again at each step). The page's blocks come from its structure
 * whatever spells it (page-blocks.ts). Pages of entries that fit the budget: blocks ranked for
 * the question and its hops, their best sentences kept (select-paragraphs.ts). Other pages: the
 * windows of https://jina.ai/news/snippet-selection-and-url-ranking-in-deepsearch-deepresearch/:
 * fixed-size chunks scored against the question (BM25, blended with embeddings when given), a
 * sliding-window average, the best non-overlapping windows. Then BM25 over whole blocks and the
 * leading text are weighed against that selection (weigh-selections.ts). Pages within the budget
 * pass through whole; with nothing matching, the leading text.
 */
export function createSnippetSelector(text: string, options: { chunkChars?: number } = {}): SnippetSelector {
  let chunks: TextChunk[] | undefined;
  const chunksOf = () => {
    chunks ??= chunkText(text, options.chunkChars ?? defaultSnippetChunkChars);
    return chunks;
  };
  let windowScorer: LexicalChunkScorer | undefined;
  let blocks: PageBlock[] | undefined;
  let blockScorer: LexicalChunkScorer | undefined;
  let paragraphIndex: ParagraphIndex | undefined;
  const blocksOfPage = () => {
    blocks ??= blocksOf(text);
    return blocks;
  };
  const scorerOfBlocks = () => {
    blockScorer ??= createLexicalChunkScorer(text, blocksOfPage());
    return blockScorer;
  };
  const ownSelection = (
    question: string,
    selection: SnippetOptions,
  ): { snippets: Snippet[]; names?: string[] } => {
    const paragraphs = blocksOfPage();
    if (keepsParagraphs(paragraphs, selection.budgetChars)) {
      paragraphIndex ??= {
        paragraphs,
        scorer: scorerOfBlocks(),
        sentences: sentencesOfParagraphs(text, paragraphs),
      };
      const semantic =
        selection.semantic &&
        bestPerParagraph(chunksOf(), normalised(Float64Array.from(selection.semantic)), paragraphs);
      const selected = selectParagraphsWithHops(question, text, paragraphIndex, { ...selection, semantic });
      if (selected) return selected;
    }
    windowScorer ??= createLexicalChunkScorer(text, chunksOf());
    const scores = normalised(windowScorer.score(question));
    if (selection.semantic) blend(scores, normalised(Float64Array.from(selection.semantic)));
    return { snippets: selectFromScores(text, chunksOf(), scores, selection) };
  };
  return {
    get chunks() {
      return chunksOf();
    },
    select(question, selection) {
      if (text.length <= selection.budgetChars) return [{ start: 0, end: text.length, text, score: 1 }];
      const own = ownSelection(question, selection);
      if (blocksOfPage().length < 2) return own.snippets;
      // BM25 over whole blocks and the leading text are candidates too (weigh-selections.ts).
      const scorer = scorerOfBlocks();
      return weighSelections({
        question,
        hopNames: own.names,
        blocks: blocksOfPage(),
        scorer,
        candidates: [
          { name: 'ours', snippets: own.snippets },
          {
            name: 'blocks',
            snippets: bestWholeBlocks(text, blocksOfPage(), scorer.score(question), selection.budgetChars),
          },
          { name: 'leading', snippets: [leadingSnippet(text, selection.budgetChars)] },
        ],
      }).snippets;
    },
  };
}

/** One-off selection (see createSnippetSelector). */
export function selectSnippets(question: string, text: string, options: SnippetOptions): Snippet[] {
  return createSnippetSelector(text, { chunkChars: options.chunkChars }).select(question, options);
}

function normalised(scores: Float64Array): Float64Array {
  let max = 0;
  for (const score of scores) max = Math.max(max, score);
  if (max > 0) for (let index = 0; index < scores.length; index++) scores[index]! /= max;
  return scores;
}

function blend(scores: Float64Array, semantic: ArrayLike<number>): void {
  for (let index = 0; index < scores.length; index++)
    scores[index] = (scores[index]! + (semantic[index] ?? 0)) / 2;
}

/** A paragraph's similarity: that of its best chunk (chunks and paragraphs both in page order). */
function bestPerParagraph(
  chunks: readonly TextChunk[],
  semantic: ArrayLike<number>,
  paragraphs: readonly TextChunk[],
): Float64Array {
  const best = new Float64Array(paragraphs.length);
  let paragraph = 0;
  chunks.forEach((chunk, index) => {
    while (paragraph < paragraphs.length - 1 && paragraphs[paragraph]!.end <= chunk.start) paragraph++;
    for (let at = paragraph; at < paragraphs.length && paragraphs[at]!.start < chunk.end; at++)
      best[at] = Math.max(best[at]!, semantic[index] ?? 0);
  });
  return best;
}

interface Pick {
  first: number;
  last: number;
  score: number;
}

/** The window search on precomputed chunk scores (lexical, embeddings, or a blend). */
export function selectFromScores(
  text: string,
  chunks: readonly TextChunk[],
  rawScores: ArrayLike<number>,
  options: SnippetOptions,
): Snippet[] {
  if (text.length <= options.budgetChars) return [{ start: 0, end: text.length, text, score: 1 }];
  const chunkChars = options.chunkChars ?? defaultSnippetChunkChars;
  const windowChars = Math.min(options.windowChars ?? defaultWindowChars, options.budgetChars);
  const width = Math.max(1, Math.min(chunks.length, Math.round(windowChars / chunkChars)));
  const scores = withLeadPrior(rawScores, chunks, options.leadWeight ?? 0.5);
  const windowScores = slidingAverage(scores, width);
  const picked: Pick[] = [];
  let used = 0;
  while (used < options.budgetChars) {
    const best = bestFreeWindow(windowScores, picked, width);
    if (best === -1 || windowScores[best]! <= 0) break;
    let last = best + width - 1;
    // Trim the window so the total stays within budget.
    while (last > best && used + spanLength(chunks, best, last) > options.budgetChars) last--;
    const length = spanLength(chunks, best, last);
    if (used + length > options.budgetChars) break;
    picked.push({ first: best, last, score: windowScores[best]! });
    used += length;
  }
  if (picked.length === 0) return [leadingSnippet(text, options.budgetChars)];
  return mergeInPageOrder(text, chunks, picked);
}

/** Scores scaled to [0, 1] by their maximum, plus the decaying lead prior. */
function withLeadPrior(raw: ArrayLike<number>, chunks: readonly TextChunk[], weight: number): Float64Array {
  let max = 0;
  for (let index = 0; index < raw.length; index++) if (raw[index]! > max) max = raw[index]!;
  const scores = new Float64Array(raw.length);
  // Without any match the prior alone would pick the lead: leave that to the leading fallback.
  if (max <= 0) return scores;
  for (let index = 0; index < raw.length; index++) {
    const prior = weight > 0 ? weight * Math.exp(-chunks[index]!.start / leadDecayChars) : 0;
    scores[index] = Math.max(0, raw[index]!) / max + prior;
  }
  return scores;
}

function slidingAverage(scores: ArrayLike<number>, width: number): Float64Array {
  const out = new Float64Array(Math.max(0, scores.length - width + 1));
  let sum = 0;
  for (let index = 0; index < scores.length; index++) {
    sum += scores[index]!;
    if (index >= width) sum -= scores[index - width]!;
    if (index >= width - 1) out[index - width + 1] = sum / width;
  }
  return out;
}

/** The best window overlapping no picked one; picks are few, so checking each is cheap. */
function bestFreeWindow(windowScores: Float64Array, picked: readonly Pick[], width: number): number {
  let best = -1;
  for (let start = 0; start < windowScores.length; start++) {
    if (best !== -1 && windowScores[start]! <= windowScores[best]!) continue;
    const end = start + width - 1;
    if (picked.some((pick) => start <= pick.last && end >= pick.first)) continue;
    best = start;
  }
  return best;
}

function spanLength(chunks: readonly TextChunk[], first: number, last: number): number {
  return chunks[last]!.end - chunks[first]!.start;
}

function mergeInPageOrder(text: string, chunks: readonly TextChunk[], picked: Pick[]): Snippet[] {
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

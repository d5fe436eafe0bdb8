import type { Page } from '../../providers/spec/page-reader.js';
import { Bm25Index } from '../../retrieval/bm25.js';
import { chunkText, type TextChunk } from '../../retrieval/chunk-text.js';
import { type FoldedText, foldText } from '../../retrieval/match-text.js';
import { urlKey } from '../../retrieval/normalize-url.js';
import { type Snippet, selectFromScores } from '../../retrieval/select-snippets.js';

export const snippetChunkChars = 250;

/** A page read in this run, with lazily built indexes for snippet selection and quote checks. */
export interface StoredPage {
  url: string;
  title: string;
  text: string;
  markdown: string;
  publishedAt?: string;
  step: number;
}

interface PageIndexes {
  chunks: TextChunk[];
  bm25: Bm25Index;
  folded?: FoldedText;
}

export class PageStore {
  private readonly pages = new Map<string, StoredPage>();
  private readonly indexes = new Map<string, PageIndexes>();

  add(page: Page, step: number): StoredPage {
    const stored: StoredPage = {
      url: page.url,
      title: page.title,
      text: page.text,
      markdown: page.markdown,
      publishedAt: page.publishedAt ?? page.modifiedAt,
      step,
    };
    for (const url of [page.url, page.requestedUrl]) {
      const key = urlKey(url);
      if (key) this.pages.set(key, stored);
    }
    return stored;
  }

  get(url: string): StoredPage | undefined {
    const key = urlKey(url);
    return key ? this.pages.get(key) : undefined;
  }

  all(): StoredPage[] {
    return [...new Set(this.pages.values())];
  }

  /** The parts of a page most relevant to `question`, within `budgetChars`, in page order. */
  snippets(page: StoredPage, question: string, budgetChars: number): Snippet[] {
    if (page.text.length <= budgetChars)
      return [{ start: 0, end: page.text.length, text: page.text, score: 1 }];
    const indexes = this.indexesFor(page);
    const raw = indexes.bm25.score(question);
    let max = 0;
    for (const score of raw) if (score > max) max = score;
    const scores = max === 0 ? raw : raw.map((score) => score / max);
    return selectFromScores(page.text, indexes.chunks, scores, {
      budgetChars,
      chunkChars: snippetChunkChars,
    });
  }

  /** The page text folded for quote matching, built once per page. */
  folded(page: StoredPage): FoldedText {
    const indexes = this.indexesFor(page);
    indexes.folded ??= foldText(page.text);
    return indexes.folded;
  }

  private indexesFor(page: StoredPage): PageIndexes {
    let indexes = this.indexes.get(page.url);
    if (!indexes) {
      const chunks = chunkText(page.text, snippetChunkChars);
      indexes = { chunks, bm25: new Bm25Index(chunks.map((chunk) => chunk.text)) };
      this.indexes.set(page.url, indexes);
    }
    return indexes;
  }
}

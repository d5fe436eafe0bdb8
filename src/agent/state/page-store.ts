import type { Page } from '../../providers/spec/page-reader.js';
import type { TextChunk } from '../../retrieval/chunk-text.js';
import { cosineSimilarity } from '../../retrieval/cosine-similarity.js';
import { type FoldedText, foldText } from '../../retrieval/match-text.js';
import { urlKey } from '../../retrieval/normalize-url.js';
import { PageGrouper, type PageGrouping } from '../../retrieval/page-groups.js';
import {
  createSnippetSelector,
  type Snippet,
  type SnippetSelector,
} from '../../retrieval/select-snippets.js';

export const snippetChunkChars = 250;

/** A page read in this run, with lazily built indexes for snippet selection and quote checks. */
export interface StoredPage {
  url: string;
  title: string;
  text: string;
  markdown: string;
  publishedAt?: string;
  /** The page's rel=canonical URL when it names another page. */
  canonicalUrl?: string;
  step: number;
  /** When it was fetched (ISO 8601; the reader's time, else when it joined the store). */
  fetchedAt?: string;
  /** The HTTP status it came with, when the reader knows it. */
  status?: number;
  byline?: string;
  siteName?: string;
}

interface PageIndexes {
  selector: SnippetSelector;
  /** Chunk embeddings from an embedding service, when one is configured. */
  vectors?: Array<Float32Array | undefined>;
  folded?: FoldedText;
}

export class PageStore {
  private readonly pages = new Map<string, StoredPage>();
  private readonly indexes = new Map<string, PageIndexes>();
  private readonly grouper = new PageGrouper<StoredPage>();
  /** Bumped by every add(): the grouping is redone only after one. */
  private version = 0;
  private grouped?: { version: number; grouping: PageGrouping<StoredPage> };

  add(page: Page, step: number): StoredPage {
    const stored: StoredPage = {
      url: page.url,
      title: page.title,
      text: page.text,
      markdown: page.markdown,
      publishedAt: page.publishedAt ?? page.modifiedAt,
      ...(page.canonicalUrl ? { canonicalUrl: page.canonicalUrl } : {}),
      step,
      fetchedAt: page.fetchedAt ?? new Date().toISOString(),
      ...(page.status !== undefined ? { status: page.status } : {}),
      ...(page.byline ? { byline: page.byline } : {}),
      ...(page.siteName ? { siteName: page.siteName } : {}),
    };
    this.version++;
    for (const url of [page.url, page.requestedUrl]) {
      const key = urlKey(url);
      if (key) this.pages.set(key, stored);
    }
    return stored;
  }

  /** Each page once, with every URL key it is found under; the indexes are rebuilt on demand. */
  toJSON(): Array<{ keys: string[]; page: StoredPage }> {
    const keys = new Map<StoredPage, string[]>();
    for (const [key, page] of this.pages) keys.set(page, [...(keys.get(page) ?? []), key]);
    return [...keys].map(([page, pageKeys]) => ({ keys: pageKeys, page }));
  }

  static fromJSON(entries: ReadonlyArray<{ keys: string[]; page: StoredPage }>): PageStore {
    const store = new PageStore();
    for (const { keys, page } of entries) for (const key of keys) store.pages.set(key, page);
    return store;
  }

  get(url: string): StoredPage | undefined {
    const key = urlKey(url);
    return key ? this.pages.get(key) : undefined;
  }

  all(): StoredPage[] {
    return [...new Set(this.pages.values())];
  }

  /**
   * The pages read grouped by story (retrieval/page-groups.ts): copies of one story are one
   * source. Regrouped only when pages were added; each page is hashed once.
   */
  grouping(): PageGrouping<StoredPage> {
    if (this.grouped?.version !== this.version)
      this.grouped = { version: this.version, grouping: this.grouper.group(this.all()) };
    return this.grouped.grouping;
  }

  /**
   * The parts of a page most relevant to `question`, within `budgetChars`, in page order
   * (createSnippetSelector: paragraphs and their hops, or windows). BM25 is blended half and half
   * with embedding similarity when the page's chunks and the question have vectors.
   */
  snippets(
    page: StoredPage,
    question: string,
    budgetChars: number,
    questionVector?: Float32Array,
  ): Snippet[] {
    if (page.text.length <= budgetChars) {
      return [{ start: 0, end: page.text.length, text: page.text, score: 1 }];
    }
    const indexes = this.indexesFor(page);
    const semantic =
      questionVector && indexes.vectors
        ? Float64Array.from(indexes.vectors, (vector) =>
            vector ? Math.max(0, cosineSimilarity(questionVector, vector)) : 0,
          )
        : undefined;
    return indexes.selector.select(question, { budgetChars, chunkChars: snippetChunkChars, semantic });
  }

  /** The chunks embeddings are computed for: the same ones snippets are cut from. */
  chunksOf(page: StoredPage): readonly TextChunk[] {
    return this.indexesFor(page).selector.chunks;
  }

  setChunkVectors(page: StoredPage, vectors: Array<Float32Array | undefined>): void {
    this.indexesFor(page).vectors = vectors;
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
      indexes = { selector: createSnippetSelector(page.text, { chunkChars: snippetChunkChars }) };
      this.indexes.set(page.url, indexes);
    }
    return indexes;
  }
}

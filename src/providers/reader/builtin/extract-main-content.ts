import { Readability } from '@mozilla/readability';
import { countText, findContentRoot } from './content-root.js';
import { domToText } from './dom-to-text.js';
import { readPageShape } from './page-shape.js';

export interface MainContent {
  /** The content element (detached from the page when Readability made it). */
  element: Element | undefined;
  text: string;
  title?: string;
  byline?: string;
  /** Which candidate won, and the figures it was chosen on (the benchmark prints them). */
  source: 'readability' | 'structure' | 'none';
  signals: ContentSignals;
  /** Both candidates' text, so the benchmark can score the choice itself. */
  candidates: { readability: string; structure: string };
}

export interface ContentSignals {
  readabilityLength: number;
  structureLength: number;
  structureLinkDensity: number;
  /** Non-blank characters of each candidate's text (the figures the chooser compares). */
  readabilityChars: number;
  structureChars: number;
  /** Elements directly under our candidate that hold text: many means a thread, listing or sections. */
  structureBlocks: number;
  /** Top-level <article> elements after pruning, outside comments: several means a listing or a thread... */
  articleElements: number;
  /** ...unless one of them holds most of their text (a news article among teasers). */
  mainArticleShare: number;
  /** Characters of our candidate inside a comment section. */
  commentChars: number;
  /** schema.org @type values and og:type, lower-cased. */
  pageTypes: readonly string[];
}

export interface ExtractMainContentOptions {
  url: string;
  pageTypes: readonly string[];
}

/**
 * The main content of a parsed page: Readability's article, or our structure-based candidate
 * (content-root.ts) when the signals say Readability kept too little of a page that is not an
 * article (threads, listings, product and documentation pages). Mutates the document.
 */
export function extractMainContent(document: Document, options: ExtractMainContentOptions): MainContent {
  // linkedom's document.body misses a body that follows a stray element before <head>.
  const body = document.querySelector('body') ?? document.body;
  if (!body) return emptyContent(options.pageTypes);
  const root = findContentRoot(body);
  const shape = readPageShape(body, root.element);
  // Readability rewrites the document it reads; keep our candidate intact for the comparison.
  const structure = root.element.cloneNode(true) as Element;
  const structureText = domToText(structure);
  const article = readArticle(document, options.url);
  const signals: ContentSignals = {
    readabilityLength: article?.text.length ?? 0,
    structureLength: structureText.length,
    structureLinkDensity: root.textLength ? root.linkTextLength / root.textLength : 1,
    readabilityChars: countText(article?.text ?? ''),
    structureChars: root.textLength,
    structureBlocks: root.blocks,
    ...shape,
    pageTypes: options.pageTypes,
  };
  const candidates = { readability: article?.text ?? '', structure: structureText };
  if (article && !preferStructure(signals)) {
    return {
      element: article.content,
      text: article.text,
      title: article.title,
      byline: article.byline,
      source: 'readability',
      signals,
      candidates,
    };
  }
  if (!structureText) return { ...emptyContent(options.pageTypes), signals, candidates };
  return {
    element: structure,
    text: structureText,
    title: article?.title,
    byline: article?.byline,
    source: 'structure',
    signals,
    candidates,
  };
}

/** Readability's share of our candidate's text below which our candidate is taken. */
const readabilityShare = 0.5;
/** One <article> holding this share of all their text is the page's article; the rest are teasers. */
const mainArticleShare = 0.5;
/** Readability's article this long is the page's article when our candidate is a comment section. */
const articleOverCommentsChars = 2000;

function preferStructure(signals: ContentSignals): boolean {
  if (signals.readabilityLength === 0) return true;
  const rootIsComments = signals.structureChars > 0 && signals.commentChars >= signals.structureChars;
  // Our descent ended in the readers' comments under an article Readability found.
  if (rootIsComments && signals.readabilityChars >= articleOverCommentsChars) return false;
  // Comments around the article are not content Readability missed.
  const structureChars = rootIsComments
    ? signals.structureChars
    : signals.structureChars - signals.commentChars;
  // Several <article> elements sharing the text: a listing or a thread, where Readability keeps one item.
  if (signals.articleElements >= 3 && signals.mainArticleShare < mainArticleShare) return true;
  return signals.readabilityChars < structureChars * readabilityShare;
}

function emptyContent(pageTypes: readonly string[]): MainContent {
  return {
    element: undefined,
    text: '',
    source: 'none',
    signals: {
      readabilityLength: 0,
      structureLength: 0,
      structureLinkDensity: 0,
      readabilityChars: 0,
      structureChars: 0,
      structureBlocks: 0,
      articleElements: 0,
      mainArticleShare: 0,
      commentChars: 0,
      pageTypes,
    },
    candidates: { readability: '', structure: '' },
  };
}

interface Article {
  title?: string;
  byline?: string;
  content: Element;
  text: string;
}

function readArticle(document: Document, url: string): Article | undefined {
  try {
    // Readability resolves relative links against the document's URL; linkedom has none unless told.
    Object.defineProperty(document, 'documentURI', { value: url, configurable: true });
    Object.defineProperty(document, 'baseURI', { value: url, configurable: true });
    const article = new Readability<Element>(document, {
      charThreshold: 200,
      serializer: (element) => element as Element,
    }).parse();
    if (!article?.content) return undefined;
    const text = domToText(article.content);
    if (!text) return undefined;
    return {
      title: article.title?.trim() || undefined,
      byline: article.byline?.trim() || undefined,
      content: article.content,
      text,
    };
  } catch {
    // A document Readability cannot handle still has our own candidate.
    return undefined;
  }
}

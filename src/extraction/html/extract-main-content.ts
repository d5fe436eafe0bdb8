import { Readability } from '@mozilla/readability';
import { isCommentThread } from './boilerplate-boxes.js';
import { type CandidateComparison, compareCandidates, linkTexts } from './compare-candidates.js';
import { countText, findContentRoot } from './content-root.js';
import { domToText } from './dom-to-text.js';
import { dropRawMarkup } from './drop-raw-markup.js';
import { readPageShape } from './page-shape.js';
import { dropCopyrightNotices, pruneArticle } from './prune-article.js';
import { dropBoxesAfterArticle, trimToArticle } from './trim-to-article.js';

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

export interface ContentSignals extends CandidateComparison {
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
  /** Our candidate is a comment thread (boilerplate-boxes.ts) or mostly inside comment sections. */
  structureIsComments: boolean;
  /** schema.org @type values and og:type, lower-cased. */
  pageTypes: readonly string[];
}

export interface ExtractMainContentOptions {
  url: string;
  pageTypes: readonly string[];
  /** The page's JSON-LD articleBody (page-metadata.ts): on article pages, what the content is trimmed to. */
  articleBody?: string;
  /** False: our structure candidate alone, without Readability (the benchmark's "no arbitration"). */
  arbitrate?: boolean;
}

/**
 * The main content of a parsed page: Readability's article, or our structure-based candidate
 * (content-root.ts) when the signals say Readability kept too little of a page that is not an
 * article (threads, listings, product and documentation pages). On article pages the two are
 * also compared line by line (compare-candidates.ts): Readability's tighter article wins over ours
 * when ours is that article plus teasers and link lists, or a different part of the page.
 * On article pages the chosen content is then pruned paragraph by paragraph (prune-article.ts).
 * Mutates the document.
 */
export function extractMainContent(document: Document, options: ExtractMainContentOptions): MainContent {
  // linkedom's document.body misses a body that follows a stray element before <head>.
  const body = document.querySelector('body') ?? document.body;
  if (!body) return emptyContent(options.pageTypes);
  // A news story's surroundings are left to the arbitration below.
  const root = findContentRoot(body, { linkListsBesideProse: !declaresStory(options.pageTypes) });
  const shape = readPageShape(body, root.element);
  // Readability rewrites the document it reads; keep our candidate intact for the comparison.
  const structure = root.element.cloneNode(true) as Element;
  const structureText = domToText(structure);
  const article = options.arbitrate === false ? undefined : readArticle(document, options.url);
  const signals: ContentSignals = {
    ...compareCandidates({
      readability: article?.text ?? '',
      structure: structureText,
      structureLinks: linkTexts(structure),
    }),
    readabilityLength: article?.text.length ?? 0,
    structureLength: structureText.length,
    structureLinkDensity: root.textLength ? root.linkTextLength / root.textLength : 1,
    readabilityChars: countText(article?.text ?? ''),
    structureChars: root.textLength,
    structureBlocks: root.blocks,
    ...shape,
    structureIsComments: shape.commentChars * 2 >= root.textLength || isCommentThread(root.element),
    pageTypes: options.pageTypes,
  };
  const candidates = { readability: article?.text ?? '', structure: structureText };
  const prune = (element: Element, text: string) => {
    const markup = dropRawMarkup(element);
    const dropped = dropCopyrightNotices(element) || markup;
    if (isArticlePage(signals)) {
      return pruneArticle(element, { articleBody: options.articleBody, story: isStoryPage(signals) });
    }
    return dropped ? domToText(element) : text;
  };
  if (article && options.arbitrate !== false && !preferStructure(signals)) {
    const cut = isArticlePage(signals) && dropBoxesAfterArticle(article.content);
    return {
      element: article.content,
      text: prune(article.content, cut ? domToText(article.content) : article.text),
      title: article.title,
      byline: article.byline,
      source: 'readability',
      signals,
      candidates,
    };
  }
  if (!structureText) return { ...emptyContent(options.pageTypes), signals, candidates };
  const trimmed = article && shouldTrim(signals) && trimToArticle(structure, article.text);
  return {
    element: structure,
    text: prune(structure, trimmed ? domToText(structure) : structureText),
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
  if (isArticleElsewhere(signals)) return false;
  // Our descent ended in the readers' comments under an article Readability found.
  if (rootIsComments && signals.readabilityChars >= articleOverCommentsChars) return false;
  // Comments around the article are not content Readability missed.
  const structureChars = rootIsComments
    ? signals.structureChars
    : signals.structureChars - signals.commentChars;
  // Several <article> elements sharing the text: a listing or a thread, where Readability keeps one
  // item, unless it kept nearly all of ours.
  const listing =
    signals.articleElements >= 3 &&
    signals.mainArticleShare < mainArticleShare &&
    signals.readabilityChars < structureChars &&
    !isArticleWithLittleMore(signals);
  const keptTooLittle = listing || signals.readabilityChars < structureChars * readabilityShare;
  return keptTooLittle && !isArticleWithFurniture(signals);
}

/** Ours at most this many times Readability's text, holding it: Readability read all the items. */
const littleMore = 1.5;

/**
 * Ours holds Readability's prose article and adds at most half again: where several `<article>`s
 * share the text, Readability read them all (a thread it kept whole, an article in `<article>`
 * sections), and what ours adds is the page's edges (a share bar, "back to the list").
 */
function isArticleWithLittleMore(signals: ContentSignals): boolean {
  return (
    signals.containment >= heldShare &&
    signals.readabilityChars >= articleMinChars &&
    signals.readabilityProse >= articleProse &&
    signals.structureChars <= signals.readabilityChars * littleMore
  );
}

/** Ours holds this share of Readability's article and is this much longer: ours may carry boxes around it. */
const trimContainment = 0.8;
const trimLonger = 1;
const trimMinChars = 200;
const trimMinCharsUntyped = 1000;

/** Our candidate holds Readability's article and more (trim-to-article.ts leaves threads and listings whole). */
function shouldTrim(signals: ContentSignals): boolean {
  if (signals.containment < trimContainment) return false;
  // Without an article type, a short Readability text is as likely one item of a listing, unless
  // ours is that text as one block in a page of links (menus, a sidebar, teasers of other pages).
  const minChars = isArticlePage(signals) || isBlockAmongLinks(signals) ? trimMinChars : trimMinCharsUntyped;
  if (signals.readabilityChars < minChars) return false;
  if (signals.structureChars < signals.readabilityChars * trimLonger) return false;
  return !isWholePage(signals);
}

/** Link text this share of ours: ours is more menus and link lists than text. */
const linkPageDensity = 0.4;

/**
 * Our candidate is mostly link text, the lines it adds to Readability's are mostly whole links, and
 * it holds Readability's article as one block (little of ours between its first and last shared
 * line): the descent stopped at a page of menus, a sidebar or teasers around a short article. A
 * shop's landing page adds product cards (names, prices, buttons: short lines, few of them links). A listing whose intro Readability took is a listing all the same
 * when the page declares one (isWholePage); Readability's lines scattered through ours (a few
 * blurbs of a landing page) are not one block.
 */
function isBlockAmongLinks(signals: ContentSignals): boolean {
  return (
    signals.structureLinkDensity >= linkPageDensity &&
    signals.extraLinkLines >= mostlyLinkLines &&
    signals.interiorExtra <= maxInteriorExtra
  );
}

/**
 * A page that declares itself a listing, a thread or a product and no article (schema.org types,
 * og:type `product.group` for a shop's collection): its items are content.
 */
function isWholePage(signals: ContentSignals): boolean {
  return !isArticlePage(signals) && signals.pageTypes.some((type) => wholePageTypes.test(type));
}

const wholePageTypes =
  /^(?:collectionpage|searchresultspage|itemlist|discussionforumposting|qapage|product|product\.group|profilepage)$/;

/** Readability's article this long, mostly in paragraphs of prose, is an article and not a fragment. */
const articleMinChars = 500;
const articleProse = 0.6;
/** Ours holds Readability's article when it has this share of its text, as one block... */
const heldShare = 0.9;
const maxInteriorExtra = 0.25;
/** ...and adds furniture when its extra lines are links and short lines, or mostly links. */
const furnitureMaxProse = 0.15;
const furnitureMinLinkLines = 0.2;
const mostlyLinkLines = 0.5;
/** Below this share of Readability's text in ours, ours is another part of the page. */
const elsewhereShare = 0.2;
const elsewhereProse = 0.7;
/** Readability's text this much prose is an article when ours is a comment thread (not a forum's other part). */
const commentsOverProse = 0.3;

/**
 * Ours is Readability's article plus page furniture (the tighter candidate wins, as trafilatura
 * prefers its fallback's tighter extraction): on an article page, ours holds the article as one
 * block, and what ours adds is not prose but links and short lines (teasers, related stories,
 * menus, sign-up boxes). Not on other pages: a thread's short replies under linked user names and
 * a listing's items look the same.
 */
function isArticleWithFurniture(signals: ContentSignals): boolean {
  if (!isArticlePage(signals) || signals.containment < heldShare) return false;
  if (signals.interiorExtra > maxInteriorExtra) return false;
  if (signals.readabilityChars < articleMinChars || signals.readabilityProse < articleProse) return false;
  const linksAndShortLines =
    signals.extraProse <= furnitureMaxProse && signals.extraLinkLines >= furnitureMinLinkLines;
  return linksAndShortLines || signals.extraLinkLines >= mostlyLinkLines;
}

// schema.org article types and og:type "article".
const articleTypes =
  /^(?:\w*newsarticle|article|blogposting|liveblogposting|techarticle|scholarlyarticle|report)$/;

function isArticlePage(signals: ContentSignals): boolean {
  return signals.pageTypes.some((type) => articleTypes.test(type));
}

// schema.org types of a news story or blog post: a plain "Article" is on every page of some CMSs.
const storyTypes = /^(?:\w*newsarticle|blogposting|liveblogposting|report)$/;

function isStoryPage(signals: ContentSignals): boolean {
  return declaresStory(signals.pageTypes);
}

function declaresStory(pageTypes: readonly string[]): boolean {
  return pageTypes.some((type) => storyTypes.test(type));
}

/** Ours shares almost nothing with a prose article Readability found on an article page: ours is elsewhere. */
function isArticleElsewhere(signals: ContentSignals): boolean {
  if (signals.containment >= elsewhereShare || signals.readabilityChars < articleMinChars) return false;
  // The two barely overlap and ours is the readers' comments: Readability found the article they are under.
  if (
    signals.structureIsComments &&
    (signals.readabilityProse >= commentsOverProse || isArticlePage(signals))
  ) {
    return true;
  }
  if (signals.readabilityProse < elsewhereProse) return false;
  if (isArticlePage(signals)) return true;
  // On any page, ours being nearly all links (a menu, a sitemap) is not a long article's text; a
  // shorter prose text beside a list of links is as likely a listing's introduction.
  return signals.structureLinkDensity >= menuLinkDensity && signals.readabilityChars >= menuArticleChars;
}

/** Link text this share of ours: ours is a menu... */
const menuLinkDensity = 0.8;
/** ...when Readability's prose article beside it is this long. */
const menuArticleChars = 1500;

function emptyContent(pageTypes: readonly string[]): MainContent {
  return {
    element: undefined,
    text: '',
    source: 'none',
    signals: {
      containment: 0,
      readabilityProse: 0,
      interiorExtra: 1,
      extraLinkLines: 0,
      extraProse: 0,
      readabilityLength: 0,
      structureLength: 0,
      structureLinkDensity: 0,
      readabilityChars: 0,
      structureChars: 0,
      structureBlocks: 0,
      articleElements: 0,
      mainArticleShare: 0,
      commentChars: 0,
      structureIsComments: false,
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
      // Its article keeps class names, so pruneArticle can tell author boxes and disclosures apart.
      keepClasses: true,
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

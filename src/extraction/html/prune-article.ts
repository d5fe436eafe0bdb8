import { countText } from './content-root.js';
import { domToText } from './dom-to-text.js';
import { dropTrailingCitations } from './drop-trailing-citations.js';
import { leafBlocks } from './leaf-blocks.js';

/**
 * Paragraph-level pruning of the content chosen on an article page (trafilatura prunes its chosen
 * container the same way). Captions go: they describe a picture, not the story. And where the
 * publisher's JSON-LD articleBody is the whole article (nearly all of it is in our content, and it
 * is most of our content, not a teaser's excerpt), the blocks it does not have go too: author
 * bios, donation and newsletter boxes, "related" lines, teaser lists the container carried along.
 * On a news story or blog post, elements whose class or id names an author box, bio, byline,
 * disclosure, disclaimer or caption go as well, articleBody or not, and so does the list of
 * sources that ends it (drop-trailing-citations.ts).
 * Mutates `element`; returns its text after pruning.
 */
export interface PruneArticleOptions {
  /** The page's JSON-LD articleBody (HTML or text), if any. */
  articleBody?: string;
  /** The page declares a news story or blog post (not just "Article", which many CMSs put on every page). */
  story?: boolean;
}

/** An articleBody shorter than this is a summary, not the article. */
const articleBodyMinChars = 500;
/** Share of the articleBody's shingles our content must hold: it is this article, not another. */
const articleBodyHeld = 0.9;
/** Share of our content's shingles the articleBody must hold: not an excerpt of a longer text. */
const articleBodyShare = 0.6;
/** A block is in the articleBody when its words are, in order, or half its shingles are. */
const blockHeld = 0.5;

export function pruneArticle(element: Element, options: PruneArticleOptions): string {
  dropCaptions(element);
  if (options.story) {
    dropArticleFurniture(element);
    dropTrailingCitations(element);
  }
  const text = domToText(element);
  const body = articleBodyText(options.articleBody);
  if (body.length < articleBodyMinChars) return text;
  const bodyWords = ` ${words(body).join(' ')} `;
  const bodyShingles = shingles(words(body));
  const ours = shingles(words(text));
  let shared = 0;
  for (const shingle of ours) if (bodyShingles.has(shingle)) shared++;
  if (shared < bodyShingles.size * articleBodyHeld || shared < ours.size * articleBodyShare) return text;
  let removed = false;
  for (const block of leafBlocks(element)) {
    const blockWords = words(domToText(block));
    if (blockWords.length === 0 || bodyWords.includes(` ${blockWords.join(' ')} `)) continue;
    const blockShingles = shingles(blockWords);
    let held = 0;
    for (const shingle of blockShingles) if (bodyShingles.has(shingle)) held++;
    if (held >= blockShingles.size * blockHeld) continue;
    block.remove();
    removed = true;
  }
  return removed ? domToText(element) : text;
}

/**
 * Removes the <figcaption>s, unless together they hold much of the text: a listicle or a gallery
 * tells its story in them.
 */
function dropCaptions(element: Element): void {
  const captions = [...element.querySelectorAll('figcaption')];
  if (captions.length === 0) return;
  let chars = 0;
  for (const caption of captions) chars += countText(caption.textContent ?? '');
  if (chars >= countText(element.textContent ?? '') * furnitureMaxShare) return;
  for (const caption of captions) caption.remove();
}

// Class and id words of what an article's container carries besides the story, as whole words:
// author boxes and bios, bylines, affiliate disclosures, disclaimers, captions.
// Only on news stories and blog posts: on a forum the author's name heads each post, and a service
// page that a CMS types "Article" has its testimonials' authors and captioned pictures as content.
const articleFurnitureWords =
  /(?:^|[\s_-])(?:author|authors|bio|byline|disclosure|disclaimer|caption)(?:$|[\s_-])/i;
/** Marked elements holding this share of the content's text together are the content, whatever their class says... */
const furnitureMaxShare = 0.3;
/** ...and more than this many are the parts of repeated items (a listing's bylines, testimonials' authors). */
const furnitureMaxCount = 3;

/**
 * Removes the elements under `element` whose class or id names article furniture, outermost
 * first; none when together they hold much of the text (a page builder's "author" cards, a
 * listing's bylines are its content).
 */
function dropArticleFurniture(element: Element): void {
  const total = countText(element.textContent ?? '');
  const found: Element[] = [];
  let chars = 0;
  for (const candidate of element.querySelectorAll('[class], [id]')) {
    if (found.some((outer) => outer.contains(candidate))) continue;
    const marker = `${candidate.getAttribute('class') ?? ''} ${candidate.getAttribute('id') ?? ''}`;
    if (!articleFurnitureWords.test(marker)) continue;
    const length = countText(candidate.textContent ?? '');
    if (length === 0) continue;
    // Past the count the answer is known: stop, so a page of thousands of bylines costs no more.
    if (found.push(candidate) > furnitureMaxCount) return;
    chars += length;
  }
  if (chars >= total * furnitureMaxShare) return;
  for (const candidate of found) candidate.remove();
}

// A copyright line ("© 2025 Example Inc.", "Copyright 2024 ...", "... All rights reserved."): the
// site's footer, or an image credit, left inside the content container.
const copyrightNotice = /^\s*©|^\s*copyright\s*(?:©|\(c\)|\d{4})|all rights reserved/i;
const mentionsCopyright = /©|copyright|all rights reserved/i;
/** A block this long that mentions copyright is prose about it, not a notice. */
const copyrightNoticeMaxChars = 300;

/** Removes copyright notices under `element` (on every page type); says whether it removed any. */
export function dropCopyrightNotices(element: Element): boolean {
  // Most contents have none: skip the walk over their blocks.
  if (!mentionsCopyright.test(element.textContent ?? '')) return false;
  let removed = false;
  for (const block of leafBlocks(element)) {
    // A manual page's COPYRIGHT section is preformatted text of the document itself.
    if (block.tagName === 'PRE' || !isCopyrightNotice(block.textContent ?? '')) continue;
    block.remove();
    removed = true;
  }
  return removed;
}

/** A block's text is a short copyright notice (the site's footer, an image credit). */
export function isCopyrightNotice(text: string): boolean {
  return countText(text) < copyrightNoticeMaxChars && copyrightNotice.test(text);
}

/** The articleBody as plain text: some publishers put HTML in it. */
function articleBodyText(articleBody: string | undefined): string {
  return (articleBody ?? '').replace(/<[^>]*>/g, ' ').replace(/&#?\w+;/g, ' ');
}

const wordPattern = /[\p{L}\p{N}]+/gu;

function words(text: string): string[] {
  return text.toLowerCase().match(wordPattern) ?? [];
}

/** Word 4-grams (a shorter text is one shingle): order-aware, robust to a changed word or two. */
function shingles(tokens: readonly string[]): Set<string> {
  const result = new Set<string>();
  if (tokens.length > 0 && tokens.length < 4) result.add(tokens.join(' '));
  for (let index = 0; index + 4 <= tokens.length; index++) {
    result.add(`${tokens[index]} ${tokens[index + 1]} ${tokens[index + 2]} ${tokens[index + 3]}`);
  }
  return result;
}

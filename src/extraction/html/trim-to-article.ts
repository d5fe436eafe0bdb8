import { type BoilerplateKind, boilerplateKind } from './boilerplate-boxes.js';
import { countText, linkChars } from './content-root.js';
import { domToText } from './dom-to-text.js';
import { leafBlocks } from './leaf-blocks.js';
import { isCopyrightNotice } from './prune-article.js';

/**
 * Our candidate cut down to the article Readability agrees on. The blocks that share their text
 * with Readability's article mark a span of ours; before and after it, our blocks are kept only
 * while they read as more of the same article (prose, few links, in no comment thread, teaser
 * list, related box or tag cloud: boilerplate-boxes.ts), and everything from the first block that
 * does not is dropped. Inside the span only those boxes go. Nothing is cut where Readability's
 * article is one of several alike items (a thread's post, a listing's entry): there ours is right.
 * Mutates `root`; returns whether it cut anything.
 */
export function trimToArticle(root: Element, readabilityText: string): boolean {
  const readabilityLines = new Set(readabilityText.split('\n'));
  const leaves = leafBlocks(root).map((element) => describeLeaf(element, readabilityLines));
  const first = leaves.findIndex((leaf) => leaf.shared);
  const last = leaves.findLastIndex((leaf) => leaf.shared);
  if (first < 0) return false;
  const span = commonAncestor(leaves[first]!.element, leaves[last]!.element);
  if (isRepeatedItem(span, root)) return false;
  const boxes = new Map<Element, boolean>();
  const inBox = (leaf: Leaf) => isInBox(leaf.element, span, root, boxes);
  const dropped: Element[] = [];
  for (const leaf of leaves.slice(first + 1, last))
    if (!leaf.shared && inBox(leaf)) dropped.push(leaf.element);
  dropped.push(...outside(leaves.slice(last + 1), inBox));
  dropped.push(...outside(leaves.slice(0, first).reverse(), inBox));
  return cutUnlessArticle(root, leaves, dropped, inBox) && dropped.length > 0;
}

/** Text kept before boxes are cut from the end of an article: less, and the boxes may be the page. */
const articleBeforeBoxesChars = 500;

/**
 * The boxes that follow an article inside the content Readability chose (it keeps a comment thread
 * or a teaser list whose classes it does not know): from the first block inside a box that does
 * not hold the article's first paragraph, everything goes, when at least 500 characters stay and
 * the cut drops no more prose outside boxes than half of what stays. Mutates `root`.
 */
export function dropBoxesAfterArticle(root: Element): boolean {
  const leaves = leafBlocks(root).map((element) => describeLeaf(element, new Set()));
  const first = leaves.findIndex(isProse);
  if (first < 0) return false;
  const anchor = leaves[first]!.element;
  const boxes = new Map<Element, boolean>();
  // Only the kinds Readability's own content keeps, and rarely mistaken for a section of it.
  const inBox = (leaf: Leaf) => isInBox(leaf.element, anchor, root, boxes, afterArticleKinds);
  const cut = leaves.findIndex((leaf, index) => index > first && leaf.chars > 0 && inBox(leaf));
  if (cut < 0) return false;
  const kept = leaves.slice(0, cut).reduce((chars, leaf) => chars + leaf.chars, 0);
  if (kept < articleBeforeBoxesChars) return false;
  return cutUnlessArticle(
    root,
    leaves,
    leaves.slice(cut).map((leaf) => leaf.element),
    inBox,
  );
}

/**
 * Removes `dropped` from `root` (each at its outermost element that holds no kept text), unless
 * that would drop article prose outside any box (dropsArticleText); says whether it cut.
 */
function cutUnlessArticle(
  root: Element,
  leaves: Leaf[],
  dropped: Element[],
  inBox: (leaf: Leaf) => boolean,
): boolean {
  const droppedSet = new Set(dropped);
  if (dropsArticleText(leaves, droppedSet, inBox)) return false;
  removeOutermost(
    root,
    dropped,
    leaves.filter((leaf) => leaf.chars > 0 && !droppedSet.has(leaf.element)),
  );
  return true;
}

interface Leaf {
  element: Element;
  chars: number;
  linkChars: number;
  shared: boolean;
}

/** A block this long with links under this share of its text reads as article prose. */
const proseChars = 100;
const proseLinkShare = 0.3;
/** A block with links over this share of its text is a link line, not article text. */
const linkLineShare = 0.5;
/** The cut is not made when it would drop prose outside any box of more than this share of what it keeps. */
const droppedProseShare = 0.5;
/** A block is Readability's when this share of its text is in lines Readability's article has. */
const sharedShare = 0.5;

function describeLeaf(element: Element, readabilityLines: Set<string>): Leaf {
  let chars = 0;
  let sharedChars = 0;
  for (const line of domToText(element).split('\n')) {
    const lineChars = countText(line);
    chars += lineChars;
    if (readabilityLines.has(line)) sharedChars += lineChars;
  }
  const linkedChars = element.closest('a') ? chars : linkChars(element);
  // A link line Readability also has (a title repeated in a menu) does not mark where the article
  // is, nor does the site's copyright line it kept (the article ends before the boxes above it).
  const shared =
    chars > 0 &&
    sharedChars >= chars * sharedShare &&
    linkedChars <= chars * linkLineShare &&
    !isCopyrightNotice(element.textContent ?? '');
  return { element, chars, linkChars: linkedChars, shared };
}

/**
 * Walking away from the span: prose is kept (with the short lines before it), and from the first
 * link line or block in a box on, everything goes.
 */
function outside(leaves: Leaf[], inBox: (leaf: Leaf) => boolean): Element[] {
  const dropped: Element[] = [];
  let pending: Element[] = [];
  for (const [index, leaf] of leaves.entries()) {
    if (leaf.chars === 0) continue;
    if (inBox(leaf) || (leaf.linkChars > leaf.chars * linkLineShare && !leaf.element.closest('table'))) {
      for (const rest of leaves.slice(index)) dropped.push(rest.element);
      break;
    }
    // A table's rows are data, whatever their links (a list of laureates, a timetable).
    if (isProse(leaf) || leaf.element.closest('table')) pending = [];
    else pending.push(leaf.element);
  }
  return [...dropped, ...pending];
}

/** Prose in no box that the cut would drop outweighs what it keeps: Readability's article is not the page's. */
function dropsArticleText(leaves: Leaf[], dropped: Set<Element>, inBox: (leaf: Leaf) => boolean): boolean {
  let droppedProse = 0;
  let kept = 0;
  for (const leaf of leaves) {
    if (!dropped.has(leaf.element)) kept += leaf.chars;
    else if (isProse(leaf) && !inBox(leaf)) droppedProse += leaf.chars;
  }
  return droppedProse > kept * droppedProseShare;
}

function isProse(leaf: Leaf): boolean {
  return leaf.chars >= proseChars && leaf.linkChars < leaf.chars * proseLinkShare;
}

const afterArticleKinds: ReadonlySet<BoilerplateKind> = new Set(['comments', 'tags']);

function isInBox(
  element: Element,
  span: Element,
  root: Element,
  boxes: Map<Element, boolean>,
  kinds?: ReadonlySet<BoilerplateKind>,
): boolean {
  for (let node: Element | null = element; node && node !== root; node = node.parentElement) {
    if (node.contains(span)) return false;
    let box = boxes.get(node);
    if (box === undefined) {
      const kind = boilerplateKind(node);
      box = kind !== undefined && (!kinds || kinds.has(kind));
      boxes.set(node, box);
    }
    if (box) return true;
  }
  return false;
}

function commonAncestor(left: Element, right: Element): Element {
  let node: Element | null = left;
  while (node && !node.contains(right)) node = node.parentElement;
  return node ?? left;
}

/** Readability's span sits in one of several alike siblings (same tag and class, each with text). */
function isRepeatedItem(span: Element, root: Element): boolean {
  for (let node: Element | null = span; node && node !== root; node = node.parentElement) {
    const parent: Element | null = node.parentElement;
    if (!parent) break;
    const key = `${node.tagName} ${node.getAttribute('class') ?? ''}`;
    // Plain <div>s side by side are a layout's columns and wrappers, not a thread's posts.
    if (!node.getAttribute('class') && !/^(?:ARTICLE|SECTION)$/.test(node.tagName)) continue;
    let alike = 0;
    let alikeChars = 0;
    for (
      let sibling: Element | null = parent.firstElementChild;
      sibling;
      sibling = sibling.nextElementSibling
    ) {
      if (sibling === node || `${sibling.tagName} ${sibling.getAttribute('class') ?? ''}` !== key) continue;
      const chars = countText(sibling.textContent ?? '');
      if (chars < repeatedItemChars) continue;
      alike++;
      alikeChars += chars;
    }
    // An item holding most of the text among teasers that look like it is the article, not a post.
    const dominant = countText(node.textContent ?? '') >= alikeChars;
    if (alike >= 2 && !dominant && !/^(?:P|LI|H[1-6]|BLOCKQUOTE|TR|DD|DT|PRE)$/.test(node.tagName))
      return true;
  }
  return false;
}

const repeatedItemChars = 50;

/**
 * Removes each dropped block with the largest ancestor that holds no kept block, so a box's text
 * outside its blocks (a commenter's name, a row of links) goes with it.
 */
function removeOutermost(root: Element, dropped: Element[], kept: Leaf[]): void {
  const holdsKept = new Set<Element>();
  for (const leaf of kept) {
    for (let node: Element | null = leaf.element; node && !holdsKept.has(node); node = node.parentElement) {
      holdsKept.add(node);
      if (node === root) break;
    }
  }
  for (const element of dropped) {
    let outermost = element;
    for (let parent = element.parentElement; parent && parent !== root && !holdsKept.has(parent); ) {
      outermost = parent;
      parent = parent.parentElement;
    }
    outermost.remove();
  }
}

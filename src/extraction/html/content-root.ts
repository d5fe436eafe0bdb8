import { leafBlocks } from './leaf-blocks.js';

/**
 * Our own main-content candidate, by page structure rather than by article heuristics: page
 * furniture is pruned, then we descend from <body> while one child holds nearly all of the text.
 * Where the text splits across several children (posts of a thread, items of a listing, sections
 * of a product or documentation page) that element is the content, all of it.
 */
export interface ContentRoot {
  element: Element;
  /** Characters of text in the element, and in links within it. */
  textLength: number;
  linkTextLength: number;
  /** Child elements of the candidate that hold text. */
  blocks: number;
}

const droppedTags = new Set([
  'SCRIPT',
  'STYLE',
  'TEMPLATE',
  'SVG',
  'IFRAME',
  'CANVAS',
  'OBJECT',
  'EMBED',
  'NAV',
  'ASIDE',
  'DIALOG',
  'BUTTON',
  'SELECT',
  'INPUT',
  'TEXTAREA',
  'LABEL',
]);
const droppedRoles = new Set([
  'navigation',
  'banner',
  'contentinfo',
  'complementary',
  'search',
  'menu',
  'menubar',
  'dialog',
  'alert',
]);
// Class and id words of page furniture in the wild, matched as whole words of the attribute.
const furnitureWords =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|breadcrumbs?|sidebar|side-bar|footer|masthead|cookies?|consent|gdpr|banner|share|sharing|social|newsletter|subscribe|subscription|signup|login|related|recommended|promo|advert|advertisement|ads|ad-slot|sponsored|popup|modal|overlay|skip-link|pagination|pager|toolbar|comment-form|reply-form|print-only|visually-hidden|sr-only|screen-reader-text)(?:$|[\s_-])/i;
/** In a candidate that is mostly prose, a block that is mostly links is a menu, a grid of related items... */
const linkListDensity = 0.6;
const linkListRootDensity = 0.4;
/** ...unless it is short: an inline list of a few links belongs to the text around it. */
const linkListMinChars = 80;
/** A child keeps the descent going when it holds at least this share of its parent's text. */
const dominantShare = 0.8;

interface Stats {
  text: number;
  linkText: number;
}

export interface ContentRootOptions {
  /**
   * Also drop the link lists beside a block of prose when ours is not mostly prose (a blog's
   * sidebar of widgets beside its post). Not on news stories, whose own arbitration
   * (extract-main-content.ts) deals with what surrounds the story.
   */
  linkListsBesideProse?: boolean;
}

export function findContentRoot(body: Element, options: ContentRootOptions = {}): ContentRoot {
  const stats = new Map<Element, Stats>();
  const bodyStats = prune(body, { stats, anchors: linkedAnchors(body) }, false);
  let node = body;
  let current = bodyStats;
  for (;;) {
    let best: Element | undefined;
    let bestStats: Stats | undefined;
    for (const child of childElements(node)) {
      const childStats = stats.get(child);
      if (childStats && (!bestStats || childStats.text > bestStats.text)) {
        best = child;
        bestStats = childStats;
      }
    }
    if (!best || !bestStats || bestStats.text < current.text * dominantShare) break;
    node = best;
    current = bestStats;
  }
  const rootDensity = current.text ? current.linkText / current.text : 0;
  // In a candidate that is mostly prose, link-dense blocks are menus and related-item grids (where
  // ours is mostly links, they are a listing's items). Beside a block of prose, lists of nothing but
  // links are a sidebar's widgets; a shop's cards (a name, a price, "in stock") are its products.
  const mostlyProse = rootDensity < linkListRootDensity;
  if (mostlyProse || (options.linkListsBesideProse && hasProseBlock(node, stats, current))) {
    const removed = dropLinkLists(node, stats, mostlyProse ? isLinkList : isListOfLinks);
    current = { text: current.text - removed.text, linkText: current.linkText - removed.linkText };
  }
  let blocks = 0;
  for (const child of childElements(node)) if ((stats.get(child)?.text ?? 0) > 0) blocks++;
  return { element: node, textLength: current.text, linkTextLength: current.linkText, blocks };
}

/**
 * Removes furniture under `element` and returns its text statistics. A furniture-looking element
 * holding most of the page's text is kept: some sites put such words on their content wrappers.
 */
interface PruneContext {
  stats: Map<Element, Stats>;
  /** Ids the page's own links point to (`href="#id"`). */
  anchors: ReadonlySet<string>;
}

function prune(element: Element, context: PruneContext, inLink: boolean): Stats {
  const total: Stats = { text: 0, linkText: 0 };
  const isLink = inLink || isLinkElement(element);
  const candidates: Array<{ child: Element; stats: Stats }> = [];
  for (let node = element.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 3) {
      const length = countText(node.textContent ?? '');
      total.text += length;
      if (isLink) total.linkText += length;
      continue;
    }
    if (node.nodeType !== 1) continue;
    const child = node as Element;
    if (isAlwaysDropped(child)) {
      candidates.push({ child, stats: { text: -1, linkText: 0 } });
      continue;
    }
    const childStats = prune(child, context, isLink);
    candidates.push({ child, stats: childStats });
    total.text += childStats.text;
    total.linkText += childStats.linkText;
  }
  for (const { child, stats: childStats } of candidates) {
    if (childStats.text < 0) {
      child.remove();
    } else if (isFurniture(child, childStats, total, context.anchors)) {
      child.remove();
      total.text -= childStats.text;
      total.linkText -= childStats.linkText;
    } else {
      context.stats.set(child, childStats);
    }
  }
  return total;
}

/** Removes link-dense blocks under `element`; returns what they held. */
function dropLinkLists(
  element: Element,
  stats: Map<Element, Stats>,
  drops: (stats: Stats, element: Element) => boolean,
): Stats {
  const removed: Stats = { text: 0, linkText: 0 };
  for (const child of [...childElements(element)]) {
    const childStats = stats.get(child);
    if (!childStats || childStats.text === 0) continue;
    if (drops(childStats, child)) {
      child.remove();
      removed.text += childStats.text;
      removed.linkText += childStats.linkText;
      continue;
    }
    const inner = dropLinkLists(child, stats, drops);
    removed.text += inner.text;
    removed.linkText += inner.linkText;
  }
  return removed;
}

/** A link list whose lines are nearly all links (two thirds or more of its innermost blocks). */
function isListOfLinks(stats: Stats, element: Element): boolean {
  if (!isLinkList(stats)) return false;
  let lines = 0;
  let links = 0;
  for (const leaf of leafBlocks(element)) {
    const text = countText(leaf.textContent ?? '');
    if (text === 0) continue;
    lines++;
    if (linkChars(leaf) * 2 >= text || leaf.closest('a')) links++;
  }
  return lines > 0 && links * 3 >= lines * 2;
}

/** A child of `element` holding a quarter or more of its text, under a quarter of it in links. */
function hasProseBlock(element: Element, stats: Map<Element, Stats>, total: Stats): boolean {
  for (const child of childElements(element)) {
    const childStats = stats.get(child);
    if (!childStats || childStats.text < total.text * proseBlockShare) continue;
    if (childStats.linkText < childStats.text * proseBlockLinks) return true;
  }
  return false;
}

const proseBlockShare = 0.25;
const proseBlockLinks = 0.25;

function* childElements(element: Element): Generator<Element> {
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) yield child;
}

/** Non-blank characters of a text. */
export function countText(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 10 && code !== 9 && code !== 13 && code !== 160) count++;
  }
  return count;
}

/** Non-blank characters of the text of the links (<a>) under an element. */
export function linkChars(element: Element): number {
  let chars = 0;
  for (const link of element.querySelectorAll('a')) chars += countText(link.textContent ?? '');
  return chars;
}

function isAlwaysDropped(element: Element): boolean {
  if (droppedTags.has(element.tagName)) return true;
  if (element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true') return true;
  const role = element.getAttribute('role');
  // A banner that holds the page's <main> or <article> was left open by the page: it is the page.
  if (role && droppedRoles.has(role)) return !element.querySelector('main, article, [role="main"]');
  const style = element.getAttribute('style');
  return style !== null && /display\s*:\s*none|visibility\s*:\s*hidden/i.test(style);
}

// Some sites (forum engines, single-page apps) serve the whole page to non-JS clients in <noscript>;
// a short one only says "enable JavaScript".
const noscriptContentChars = 500;

function isFurniture(element: Element, stats: Stats, parent: Stats, anchors: ReadonlySet<string>): boolean {
  if (element.tagName === 'NOSCRIPT') return stats.text < noscriptContentChars;
  const furniture = looksLikeFurniture(element, anchors);
  if (!furniture) return false;
  // A wrapper named after what it sits beside (`left-navigation_page-wrapper`) holding the page's
  // <main> is the page.
  if (furniture === 'named' && element.querySelector(pageMain)) return false;
  if (stats.text < parent.text * 0.5) return true;
  // A menu wrapped alone in its own box holds all of its parent's text: still a menu when it is
  // links, its class or id says menu or sidebar (not its tag: a <form> or <footer> may wrap a whole
  // page) and it holds no headline or article.
  return (
    furniture === 'named' &&
    isLinkList(stats) &&
    nameMatches(element, menuWords) &&
    !element.querySelector(pageHeadlineOrArticle)
  );
}

// Furniture words that never name a page's own items (`related`, `recommended`, `promo` may: a
// listing of related products is the page on a shop's landing page).
const menuWords =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|submenu|breadcrumbs?|sidebar|side-bar|footer|masthead|share|sharing|social|toolbar|pagination|pager|skip-link)(?:$|[\s_-])/i;

/**
 * Whether the element's class, id (unless `id` says no) or, for a web component, tag name
 * (`<site-footer>`, `<pp-navigation>`) has one of the words.
 */
function nameMatches(element: Element, words: RegExp, id = (_value: string) => true): boolean {
  const tag = element.tagName;
  const elementId = element.getAttribute('id') ?? '';
  return (
    words.test(element.getAttribute('class') ?? '') ||
    (words.test(elementId) && id(elementId)) ||
    (tag.includes('-') && words.test(tag.toLowerCase()))
  );
}

const pageMain = 'main, [role="main"]';
// Named furniture holding <main> was kept above already: no need to look for it twice.
const pageHeadlineOrArticle = 'h1, article';

function isLinkList(stats: Stats): boolean {
  return stats.text >= linkListMinChars && stats.linkText > stats.text * linkListDensity;
}

/**
 * A link: <a>, or a web component with an address (`<pp-link href=…>`, whose own script makes it
 * one), or an element that says it is one.
 */
function isLinkElement(element: Element): boolean {
  const tag = element.tagName;
  if (tag === 'A') return true;
  return (tag.includes('-') && element.hasAttribute('href')) || element.getAttribute('role') === 'link';
}

/** Furniture by its tag (`tag`: <footer>, <form>, a page <header>) or by its name (`named`: class, id). */
function looksLikeFurniture(element: Element, anchors: ReadonlySet<string>): 'tag' | 'named' | false {
  const tag = element.tagName;
  if (tag === 'FOOTER' || tag === 'FORM') return 'tag';
  // A page header holds the logo and menus; a header with the page's <h1> opens the content.
  if (tag === 'HEADER') return !element.querySelector('h1') && !isItemHeader(element) && 'tag';
  return nameMatches(element, furnitureWords, (id) => !isSlug(id, anchors)) && 'named';
}

/**
 * An id made from a heading's words that the page's own table of contents links to
 * ("menu-ideas-for-a-spring-wedding"): a section of the text, whatever word it starts with.
 */
function isSlug(id: string, anchors: ReadonlySet<string>): boolean {
  return anchors.has(id) && id.split(/[-_]/).length >= slugWords;
}

const slugWords = 3;

/** The ids that links in `body` point to within the page. */
function linkedAnchors(body: Element): Set<string> {
  const anchors = new Set<string>();
  for (const link of body.querySelectorAll('a[href*="#"]')) {
    const href = link.getAttribute('href') ?? '';
    const fragment = href.slice(href.indexOf('#') + 1);
    if (fragment) anchors.add(decodeFragment(fragment));
  }
  return anchors;
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/**
 * A header inside an <article> or a list item that is mostly a heading (an accordion's or a
 * section's title bar) heads that item's text, not the page: kept unless it holds menus.
 */
function isItemHeader(header: Element): boolean {
  if (header.parentElement?.closest('article, li') == null || header.querySelector('nav, ul, ol'))
    return false;
  // A title bar: its text is a heading's (a post's header of user name and date is not), and not
  // a link (a teaser's headline is).
  const heading = header.querySelector('h2, h3, h4, h5, h6');
  if (!heading || heading.querySelector('a')) return false;
  return countText(heading.textContent ?? '') * 2 >= countText(header.textContent ?? '');
}

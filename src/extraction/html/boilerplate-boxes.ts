import { countText, linkChars } from './content-root.js';

/**
 * Boxes around an article that are not the article: a comment thread, a list of teasers for other
 * stories, a "related" / "more from" / "recommended" / "trending" box, a tag cloud. Each detector
 * reads one element; `boilerplateKind` says which one matched, if any. Used by the arbitration
 * (trim-to-article.ts) on what our candidate holds outside the span Readability agrees on, so a
 * box is judged only where the article is not.
 */
export type BoilerplateKind = 'comments' | 'teasers' | 'related' | 'tags';

// Class and id words, as whole words of the attribute (WordPress, Disqus and most CMS themes).
const commentMarker =
  /(?:^|[\s_-])(?:comments?|commentlist|comment-list|comments-area|disqus|respond|replies|discussion|talkback|leserkommentare|kommentare?)(?:$|[\s_-])/i;
const relatedMarker =
  /(?:^|[\s_-])(?:related|more-from|more-stories|morestories|recommended|recommendations|recirculation|recirc|trending|most-popular|mostpopular|most-read|mostread|popular|read-more|readmore|also-read|see-also|teasers?|outbrain|taboola|further-reading|more-articles)(?:$|[\s_-])/i;
const tagMarker =
  /(?:^|[\s_-])(?:tags?|tag-?list|tag-?cloud|tagcloud|keywords|topics|schlagworte|post-tags|entry-tags)(?:$|[\s_-])/i;

// Headings that open such a box, in the languages the pages come in most.
const commentHeading =
  /^(?:\d+\s+)?(?:comments?|kommentare?|commentaires?|komentarze?|commenti|comentarios?|reader comments|top rated comments|leave a (?:reply|comment)|join the discussion|\d+ (?:comments?|responses?|replies))\b/i;
const relatedHeading =
  /^(?:related|more (?:from|on|about|stories|news|articles)|recommended|trending|most (?:read|popular|viewed)|popular|you (?:may|might) (?:also )?like|read (?:more|also|next)|see also|also on|further reading|weitere|mehr (?:zum thema|aus|von|news)|lesen sie auch|auch interessant|das könnte sie auch interessieren|empfohlen|à lire aussi|lire aussi|sur le même sujet|zobacz (?:też|także)|czytaj (?:też|także|więcej)|polecane|leggi anche|te puede interesar)\b/i;
const tagHeading = /^(?:tags?|schlagwörter|schlagworte|themen|topics|keywords|mots-clés|tagi)\s*:?$/i;

// A time a comment shows: "2 days ago", "vor 3 Stunden", "il y a 2 jours", a clock time, a date.
const timeMark =
  /\b\d+\s*(?:min(?:ute)?s?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago\b|\bvor\s+\d+\s+(?:min|stunden?|tagen?|wochen?|monaten?|jahren?)|\bil y a \d+|\b\d{1,2}:\d{2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b(?:19|20)\d{2}-\d{2}-\d{2}\b/i;
// What readers do to a comment: reply, vote, rate, like, report.
const reactionMark =
  /\b(?:reply|antworten|répondre|odpowiedz|votes?|rating|like|likes|report|melden|upvote|downvote|permalink|recommend)\b/i;

function markerOf(element: Element): string {
  return `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
}

/** Text with a space between text nodes: "alice" and "2 days ago" in two elements stay two words. */
function textOf(element: Element): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) parts.push(child.textContent ?? '');
      else if (child.nodeType === 1) walk(child);
    }
  };
  walk(element);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** The element's own heading: its first element child when that is a heading (or a short label). */
function headingOf(element: Element): string | undefined {
  const first = element.firstElementChild;
  if (!first) return undefined;
  const heading = /^H[1-6]$/.test(first.tagName) ? first : first.querySelector('h1, h2, h3, h4, h5, h6');
  if (heading && (heading === first || countText(first.textContent ?? '') < 120)) return textOf(heading);
  const text = textOf(first);
  return text.length > 0 && text.length <= 40 ? text : undefined;
}

/** Children with text, grouped by tag and class: the largest group of alike items. */
function repeatedItems(element: Element): Element[] {
  const groups = new Map<string, Element[]>();
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    if (countText(child.textContent ?? '') === 0) continue;
    const key = `${child.tagName} ${child.getAttribute('class') ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), child]);
  }
  let largest: Element[] = [];
  for (const group of groups.values()) if (group.length > largest.length) largest = group;
  return largest;
}

/** A thread of readers' comments: marked as one, headed as one, or alike items with a time and a reaction each. */
export function isCommentThread(element: Element): boolean {
  const marker = markerOf(element);
  if (marker.length > 1 && commentMarker.test(marker)) return true;
  const heading = headingOf(element);
  if (heading && commentHeading.test(heading)) return true;
  const items = repeatedItems(element);
  if (items.length < 2) return false;
  const commentLike = items.filter((item) => {
    const text = textOf(item);
    return timeMark.test(text) && reactionMark.test(text);
  });
  return commentLike.length >= Math.max(2, items.length * 0.6);
}

const tableParts = new Set(['TABLE', 'TBODY', 'THEAD', 'TFOOT', 'TR']);

/**
 * Alike items each mostly a link (a headline) with a short lede, byline or date, or opening with a
 * linked headline over a lede of a sentence or two: teasers for other pages.
 */
export function isTeaserList(element: Element): boolean {
  // A table's rows of links are data (a list of laureates, a timetable), not teasers.
  if (tableParts.has(element.tagName)) return false;
  const items = repeatedItems(element);
  if (items.length < 3) return false;
  const teasers = items.filter((item) => {
    const chars = countText(item.textContent ?? '');
    if (chars === 0 || chars > 400) return false;
    const links = linkChars(item);
    return (links > 0 && links >= chars * 0.3) || opensWithLinkedHeadline(item);
  });
  return teasers.length >= items.length * 0.7;
}

/** Text before a teaser's headline: a kicker, a category, a date. */
const kickerMaxChars = 40;

/**
 * The item's first heading is a link (another page's headline) and little text comes before it.
 * An article's own section headings are not links.
 */
function opensWithLinkedHeadline(item: Element): boolean {
  const heading = item.querySelector('h1, h2, h3, h4, h5, h6');
  if (!heading) return false;
  const chars = countText(heading.textContent ?? '');
  if (chars === 0 || linkChars(heading) < chars * 0.8) return false;
  return textOf(item).indexOf(textOf(heading)) <= kickerMaxChars;
}

const relatedLinkShare = 0.25;

/** A box of other stories, marked as one, or headed as one and made of links. */
export function isRelatedBox(element: Element): boolean {
  const marker = markerOf(element);
  if (marker.length > 1 && relatedMarker.test(marker)) return true;
  const heading = headingOf(element);
  if (heading === undefined || heading.length > 60 || !relatedHeading.test(heading)) return false;
  // Headed so, but prose without links: a section of the article ("Related work").
  return linkChars(element) >= countText(element.textContent ?? '') * relatedLinkShare;
}

/** Several short links and little else, marked or labelled as tags. */
export function isTagCloud(element: Element): boolean {
  const links = [...element.querySelectorAll('a')];
  if (links.length < 2) return false;
  const chars = countText(element.textContent ?? '');
  const linked = linkChars(element);
  const shortLinks = links.every((link) => textOf(link).split(' ').length <= 4);
  if (!shortLinks || linked < chars * 0.6) return false;
  const marker = markerOf(element);
  if (marker.length > 1 && tagMarker.test(marker)) return true;
  // The label before the first link: "Tags:", "Themen".
  const text = textOf(element);
  const label = text.slice(0, Math.max(0, text.indexOf(textOf(links[0]!)))).trim();
  return tagHeading.test(label) || tagHeading.test(headingOf(element) ?? '');
}

export function boilerplateKind(element: Element): BoilerplateKind | undefined {
  if (isCommentThread(element)) return 'comments';
  if (isTagCloud(element)) return 'tags';
  if (isRelatedBox(element)) return 'related';
  if (isTeaserList(element)) return 'teasers';
  return undefined;
}

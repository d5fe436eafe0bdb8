import { countText } from './content-root.js';

/**
 * What a pruned page is shaped like, for choosing between Readability's article and our
 * structure candidate: its <article> elements (several that share the text: a thread or a
 * listing; one that holds most of it among small teasers: a news article) and its comment
 * section (readers' comments under an article are not the article; Readability drops them).
 */
export interface PageShape {
  /** Top-level <article> elements left after pruning, outside comment sections. */
  articleElements: number;
  /** The largest of those elements' share of their text (0 without any). */
  mainArticleShare: number;
  /** Characters of our candidate's text inside comment sections (all of it when the candidate is one). */
  commentChars: number;
}

// Class and id words of comment sections (WordPress, Disqus, most CMS themes), as whole words.
const commentWords =
  /(?:^|[\s_-])(?:comments?|commentlist|comment-list|comments-area|disqus|respond|replies|discussion)(?:$|[\s_-])/i;

export function readPageShape(body: Element, root: Element): PageShape {
  let total = 0;
  let largest = 0;
  let articleElements = 0;
  for (const element of body.querySelectorAll('article')) {
    if (element.parentElement?.closest('article') || inComments(element)) continue;
    const length = countText(element.textContent ?? '');
    if (length === 0) continue;
    articleElements++;
    total += length;
    largest = Math.max(largest, length);
  }
  return {
    articleElements,
    mainArticleShare: total ? largest / total : 0,
    commentChars: inComments(root) ? countText(root.textContent ?? '') : commentCharsUnder(root),
  };
}

function isCommentSection(element: Element): boolean {
  const marker = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
  return marker.length > 1 && commentWords.test(marker);
}

function inComments(element: Element): boolean {
  for (let node: Element | null = element; node; node = node.parentElement) {
    if (isCommentSection(node)) return true;
  }
  return false;
}

function commentCharsUnder(element: Element): number {
  let chars = 0;
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    chars += isCommentSection(child) ? countText(child.textContent ?? '') : commentCharsUnder(child);
  }
  return chars;
}

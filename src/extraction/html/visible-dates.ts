import { toIsoDate } from '../../platform/http/to-iso-date.js';
import { type FirstMatch, firstMatchIn, type MatchableDocument } from './first-match.js';

export interface VisibleDates {
  publishedAt?: string;
  modifiedAt?: string;
}

// Dates in CMS markup (WordPress, Drupal, Ghost themes), then any <time> inside the content.
const publishedMarkup = [
  'time.entry-date.published',
  '.posted-on time.published',
  'time.byline-meta-date',
  'time.article-date',
  'span[property="dc:date dc:created"]',
  '.field--name-created time',
  'article time[datetime]',
  'main time[datetime]',
];
const modifiedMarkup = ['time.updated', 'time.entry-date.updated', '.field--name-changed time'];

const months =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const datePattern = `(\\d{4}-\\d{2}-\\d{2}|(?:${months})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:${months})\\.?,?\\s+\\d{4})`;
const labelledDate = new RegExp(
  `\\b(published|posted|released|updated|last updated|last modified|modified|revised)(?:\\s+(?:on|at))?\\s*:?\\s*${datePattern}`,
  'gi',
);
/** Dates said in words are near the top of a page; further down they belong to comments or links. */
const scannedChars = 5000;

/**
 * Dates a page shows rather than declares (visible dates and CMS habits, as in
 * https://jina.ai/news/snippet-selection-and-url-ranking-in-deepsearch-deepresearch/): <time>
 * elements of the usual themes, then "Published March 5, 2024" / "Last updated: 2024-03-05" in the
 * first part of the text. Used only when meta tags and JSON-LD give none.
 */
export function readVisibleDates(
  document: MatchableDocument,
  find: FirstMatch = firstMatchIn(document),
): VisibleDates {
  const dates: VisibleDates = {
    publishedAt: firstMarkupDate(find, publishedMarkup),
    modifiedAt: firstMarkupDate(find, modifiedMarkup),
  };
  if (dates.publishedAt && dates.modifiedAt) return dates;
  const body = document.querySelector('body') as TreeNode | null;
  const text = body ? leadingText(body, scannedChars) : '';
  for (const match of text.matchAll(labelledDate)) {
    const date = parseWrittenDate(match[2]!);
    if (!date) continue;
    const isUpdate = /updated|modified|revised/i.test(match[1]!);
    if (isUpdate) dates.modifiedAt ??= date;
    else dates.publishedAt ??= date;
  }
  return dates;
}

interface TreeNode {
  nodeType: number;
  firstChild: TreeNode | null;
  nextSibling: TreeNode | null;
  textContent: string | null;
}

const textNode = 3;

/**
 * `element.textContent.replace(/\s+/g, ' ').slice(0, chars)`, from the text nodes up to there
 * rather than from the whole page's text (which a long page spends a millisecond or more
 * building): each node's text with its runs of whitespace as one space, one space where two
 * nodes' runs meet.
 */
export function leadingText(element: TreeNode, chars: number): string {
  let text = '';
  const walk = (node: TreeNode): boolean => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === textNode) {
        let part = (child.textContent ?? '').replace(/\s+/g, ' ');
        if (part.startsWith(' ') && text.endsWith(' ')) part = part.slice(1);
        text += part;
        if (text.length >= chars) return true;
      } else if (walk(child)) return true;
    }
    return false;
  };
  walk(element);
  return text.slice(0, chars);
}

function firstMarkupDate(find: FirstMatch, selectors: readonly string[]): string | undefined {
  for (const selector of selectors) {
    const element = find(selector);
    if (!element) continue;
    const date =
      toIsoDate(element.getAttribute('datetime') ?? element.getAttribute('content')) ??
      parseWrittenDate(element.textContent ?? '');
    if (date) return date;
  }
  return undefined;
}

const monthIndex = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "2024-03-05", "March 5, 2024", "5th Mar 2024" as UTC midnight; Date.parse would use local time. */
export function parseWrittenDate(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(trimmed)) return toIsoDate(trimmed.slice(0, 10));
  const words = trimmed.toLowerCase().match(/[a-z]+|\d+/g) ?? [];
  const month = words.findIndex((word) => monthIndex.includes(word.slice(0, 3)) && /^[a-z]+$/.test(word));
  const numbers = words.filter((word) => /^\d+$/.test(word)).map(Number);
  const year = numbers.find((value) => value >= 1000);
  const day = numbers.find((value) => value >= 1 && value <= 31);
  if (month === -1 || year === undefined || day === undefined) return undefined;
  const date = new Date(Date.UTC(year, monthIndex.indexOf(words[month]!.slice(0, 3)), day));
  return date.getUTCDate() === day ? toIsoDate(date.toISOString()) : undefined;
}

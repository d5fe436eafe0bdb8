import { toIsoDate } from '../../platform/http/to-iso-date.js';
import {
  type FirstMatch,
  firstMatchIn,
  type MatchableDocument,
  type MatchableElement,
} from './first-match.js';
import { readAccessibleForFree } from './paywall-signals.js';
import { readVisibleDates } from './visible-dates.js';

interface DocumentLike extends MatchableDocument {
  querySelectorAll(selector: string): ArrayLike<MatchableElement>;
}

export interface PageMetadata {
  title?: string;
  byline?: string;
  siteName?: string;
  publishedAt?: string;
  modifiedAt?: string;
  /** schema.org @type values of the JSON-LD blocks and og:type, lower-cased ('article', 'product'...). */
  pageTypes: string[];
  /** JSON-LD isAccessibleForFree: false when the publisher marks the content as paid. */
  accessibleForFree?: boolean;
  /** The longest JSON-LD articleBody: the publisher's own article text (extraction trims to it). */
  articleBody?: string;
}

// Where sites put their dates, most specific first (Open Graph, Dublin Core, schema.org microdata, CMS habits).
const publishedSelectors = [
  'meta[property="article:published_time"]',
  'meta[property="og:published_time"]',
  'meta[name="article:published_time"]',
  'meta[itemprop="datePublished"]',
  'meta[name="date"]',
  'meta[name="pubdate"]',
  'meta[name="publishdate"]',
  'meta[name="DC.date.issued"]',
  'meta[name="dc.date"]',
  'meta[name="citation_publication_date"]',
  'time[itemprop="datePublished"]',
  'time[pubdate]',
];
const modifiedSelectors = [
  'meta[property="article:modified_time"]',
  'meta[property="og:updated_time"]',
  'meta[itemprop="dateModified"]',
  'meta[name="last-modified"]',
  'time[itemprop="dateModified"]',
];

/**
 * The absolute http(s) URL of the page's `<link rel="canonical">`, when it names a page other
 * than `url` (a page naming itself says nothing).
 */
export function readCanonicalUrl(document: DocumentLike, url: string): string | undefined {
  const href = document.querySelector('link[rel~="canonical"]')?.getAttribute('href')?.trim();
  if (!href) return undefined;
  try {
    const canonical = new URL(href, url);
    if (canonical.protocol !== 'http:' && canonical.protocol !== 'https:') return undefined;
    canonical.hash = '';
    return canonical.href === new URL(url).href ? undefined : canonical.href;
  } catch {
    return undefined;
  }
}

/**
 * Title, author and dates from meta tags, microdata and JSON-LD, else dates the page shows
 * (visible-dates.ts); read before extraction changes the DOM.
 */
export function readPageMetadata(document: DocumentLike): PageMetadata {
  const jsonLd = readJsonLd(document);
  const find = firstMatchIn(document);
  const publishedAt = firstDate(find, publishedSelectors) ?? toIsoDate(jsonLd.datePublished);
  const modifiedAt = firstDate(find, modifiedSelectors) ?? toIsoDate(jsonLd.dateModified);
  const visible = publishedAt && modifiedAt ? {} : readVisibleDates(document, find);
  return {
    title:
      firstAttribute(find, ['meta[property="og:title"]', 'meta[name="twitter:title"]']) ??
      text(document.querySelector('title')),
    byline: firstAttribute(find, ['meta[name="author"]', 'meta[property="article:author"]']) ?? jsonLd.author,
    siteName: firstAttribute(find, ['meta[property="og:site_name"]', 'meta[name="application-name"]']),
    publishedAt: publishedAt ?? visible.publishedAt,
    modifiedAt: modifiedAt ?? visible.modifiedAt,
    pageTypes: [
      ...jsonLd.types,
      ...(firstAttribute(find, ['meta[property="og:type"]'])?.toLowerCase() ?? '')
        .split(/\s+/)
        .filter(Boolean),
    ],
    accessibleForFree: jsonLd.accessibleForFree,
    ...(jsonLd.articleBody ? { articleBody: jsonLd.articleBody } : {}),
  };
}

function firstAttribute(find: FirstMatch, selectors: string[]): string | undefined {
  for (const selector of selectors) {
    const value = find(selector)?.getAttribute('content')?.trim();
    if (value) return value;
  }
  return undefined;
}

function firstDate(find: FirstMatch, selectors: string[]): string | undefined {
  for (const selector of selectors) {
    const element = find(selector);
    if (!element) continue;
    const date = toIsoDate(
      element.getAttribute('content') ?? element.getAttribute('datetime') ?? element.textContent,
    );
    if (date) return date;
  }
  return undefined;
}

function text(element: MatchableElement | null): string | undefined {
  const value = element?.textContent?.replace(/\s+/g, ' ').trim();
  return value || undefined;
}

interface JsonLdFacts {
  types: string[];
  author?: string;
  datePublished?: string;
  dateModified?: string;
  accessibleForFree?: boolean;
  articleBody?: string;
}

/**
 * The first schema.org object in the page's JSON-LD blocks that carries a date (graphs included),
 * the @type of every object, and the longest articleBody.
 */
function readJsonLd(document: DocumentLike): JsonLdFacts {
  const facts: JsonLdFacts = { types: [] };
  let dated = false;
  const scripts = document.querySelectorAll('script[type="application/ld+json"]');
  for (let index = 0; index < scripts.length; index++) {
    let data: unknown;
    try {
      data = JSON.parse(scripts[index]!.textContent ?? '');
    } catch {
      continue;
    }
    for (const node of flattenJsonLd(data)) {
      const type = node['@type'];
      for (const name of Array.isArray(type) ? type : [type]) {
        if (typeof name === 'string') facts.types.push(name.toLowerCase());
      }
      const free = readAccessibleForFree(node.isAccessibleForFree);
      // One object marked paid is enough: sites mark the article, not always the page.
      if (free !== undefined && facts.accessibleForFree !== false) facts.accessibleForFree = free;
      const body = node.articleBody;
      if (typeof body === 'string' && body.length > (facts.articleBody?.length ?? 0))
        facts.articleBody = body;
      if (!dated && (typeof node.datePublished === 'string' || typeof node.dateModified === 'string')) {
        dated = true;
        facts.datePublished = typeof node.datePublished === 'string' ? node.datePublished : undefined;
        facts.dateModified = typeof node.dateModified === 'string' ? node.dateModified : undefined;
        facts.author = authorName(node.author);
      }
    }
  }
  return facts;
}

function flattenJsonLd(data: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(data)) return data.flatMap(flattenJsonLd);
  if (!data || typeof data !== 'object') return [];
  const node = data as Record<string, unknown>;
  return [node, ...flattenJsonLd(node['@graph'])];
}

function authorName(author: unknown): string | undefined {
  const first = Array.isArray(author) ? author[0] : author;
  if (typeof first === 'string') return first;
  if (first && typeof first === 'object' && typeof (first as { name?: unknown }).name === 'string') {
    return (first as { name: string }).name;
  }
  return undefined;
}

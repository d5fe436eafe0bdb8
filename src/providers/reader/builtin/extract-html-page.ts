import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { Page } from '../../spec/page-reader.js';
import { domToText } from './dom-to-text.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { collectPageLinks } from './page-links.js';
import { readPageMetadata } from './page-metadata.js';

/** What extraction finds in a page: everything of a Page but where it came from. */
export type ExtractedPage = Omit<Page, 'requestedUrl' | 'url' | 'contentType'>;

// Page furniture dropped when Readability finds no article and the whole body is used instead.
const furnitureSelector =
  'script, style, noscript, template, svg, iframe, nav, header, footer, aside, form, [role="navigation"], [aria-hidden="true"]';

/**
 * The main content of an HTML page as markdown and text, with its title, author, dates and links.
 * Links and metadata are read first, since Readability rewrites the document it is given.
 */
export function extractHtmlPage(html: string, url: string): ExtractedPage {
  const { document } = parseHTML(html);
  const links = collectPageLinks(document, url);
  const metadata = readPageMetadata(document);
  const article = readArticle(document, url);
  const content = article?.content ?? bodyWithoutFurniture(html);
  const text = content ? domToText(content) : '';
  return {
    title: article?.title || metadata.title || titleFromUrl(url),
    markdown: content ? htmlToMarkdown(content.innerHTML) : '',
    text,
    links,
    byline: article?.byline || metadata.byline,
    publishedAt: metadata.publishedAt,
    modifiedAt: metadata.modifiedAt,
  };
}

interface ArticleElement {
  innerHTML: string;
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<ArticleElement>;
}

function readArticle(
  document: Document,
  url: string,
): { title: string; byline?: string; content: ArticleElement } | undefined {
  try {
    // Readability resolves relative links against the document's URL; linkedom has none unless told.
    Object.defineProperty(document, 'documentURI', { value: url, configurable: true });
    Object.defineProperty(document, 'baseURI', { value: url, configurable: true });
    const article = new Readability<ArticleElement>(document, {
      charThreshold: 200,
      serializer: (element) => element as unknown as ArticleElement,
    }).parse();
    if (!article?.content || !(article.textContent ?? '').trim()) return undefined;
    return {
      title: (article.title ?? '').trim(),
      byline: article.byline?.trim() || undefined,
      content: article.content,
    };
  } catch {
    // A document Readability cannot handle still has a body worth reading.
    return undefined;
  }
}

function bodyWithoutFurniture(html: string): ArticleElement | undefined {
  const { document } = parseHTML(html);
  const body = document.body;
  if (!body) return undefined;
  for (const element of [...body.querySelectorAll(furnitureSelector)]) element.remove();
  return body as unknown as ArticleElement;
}

function titleFromUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const last = parsed.pathname.split('/').filter(Boolean).at(-1);
    return last ? decodeURIComponent(last).replace(/[-_]+/g, ' ') : parsed.hostname;
  } catch {
    return url;
  }
}

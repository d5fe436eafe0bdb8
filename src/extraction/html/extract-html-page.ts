import { parseHTML } from 'linkedom';
import type { Page } from '../page.js';
import { looksLikeAppShell, readAppShellMarkers } from './app-shell.js';
import { completeHtmlDocument } from './complete-html-document.js';
import { extractMainContent } from './extract-main-content.js';
import { htmlToMarkdown } from './html-to-markdown.js';
import { collectPageLinks } from './page-links.js';
import { readCanonicalUrl, readPageMetadata } from './page-metadata.js';
import { showsPaywall } from './paywall-signals.js';

/** A page's content and metadata as extracted from its HTML; the reader adds the URLs and type. */
export type ExtractedPage = Omit<Page, 'requestedUrl' | 'url' | 'contentType'>;

/**
 * The main content of an HTML page as markdown and text, with its title, author, dates and links.
 * Links and metadata are read first, since extraction rewrites the document.
 */
export function extractHtmlPage(
  html: string,
  url: string,
  options: { maxTableCells?: number } = {},
): ExtractedPage {
  const { document } = parseHTML(completeHtmlDocument(html));
  const links = collectPageLinks(document, url);
  const metadata = readPageMetadata(document);
  const canonicalUrl = readCanonicalUrl(document, url);
  const shell = readAppShellMarkers(document as unknown as Document);
  const content = extractMainContent(document as unknown as Document, {
    url,
    pageTypes: metadata.pageTypes,
    articleBody: metadata.articleBody,
  });
  return {
    title: content.title || metadata.title || titleFromUrl(url),
    markdown: content.element ? htmlToMarkdown(content.element.innerHTML, options) : '',
    text: content.text,
    links,
    byline: content.byline || metadata.byline,
    ...(metadata.siteName ? { siteName: metadata.siteName } : {}),
    publishedAt: metadata.publishedAt,
    modifiedAt: metadata.modifiedAt,
    ...(canonicalUrl ? { canonicalUrl } : {}),
    ...(showsPaywall(content.text, metadata.accessibleForFree) ? { paywalled: true } : {}),
    ...(looksLikeAppShell(shell, content.text) ? { emptyShell: true } : {}),
  };
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

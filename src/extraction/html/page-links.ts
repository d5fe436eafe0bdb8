import type { PageLink } from '../page.js';

const maxAnchorChars = 120;

interface AnchorLike {
  getAttribute(name: string): string | null;
  textContent: string | null;
}

interface DocumentLike {
  querySelectorAll(selector: string): ArrayLike<AnchorLike>;
  querySelector(selector: string): AnchorLike | null;
}

/**
 * Every http(s) link of the page with its anchor text, absolute, once each (the first anchor text
 * that says something wins), links back to the same page and non-web schemes left out. Taken from
 * the whole document before extraction, so navigation and related links stay candidates to visit.
 */
export function collectPageLinks(document: DocumentLike, pageUrl: string): PageLink[] {
  const base = baseUrl(document, pageUrl);
  const page = withoutHash(pageUrl);
  const byUrl = new Map<string, PageLink>();
  const anchors = document.querySelectorAll('a[href]');
  for (let index = 0; index < anchors.length; index++) {
    const anchor = anchors[index]!;
    const url = resolveLink(anchor.getAttribute('href'), base);
    if (!url || withoutHash(url) === page) continue;
    const text = (anchor.textContent ?? anchor.getAttribute('title') ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, maxAnchorChars);
    const known = byUrl.get(url);
    if (!known) byUrl.set(url, { url, text });
    else if (!known.text && text) known.text = text;
  }
  return [...byUrl.values()];
}

function baseUrl(document: DocumentLike, pageUrl: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href');
  if (!href) return pageUrl;
  return resolveLink(href, pageUrl) ?? pageUrl;
}

function resolveLink(href: string | null, base: string): string | undefined {
  if (!href) return undefined;
  const trimmed = href.trim();
  if (!trimmed || trimmed.startsWith('#')) return undefined;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

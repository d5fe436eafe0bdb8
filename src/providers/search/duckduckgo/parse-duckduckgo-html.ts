import { parseHTML } from 'linkedom';
import type { RawSearchHit } from '../http-search-provider.js';

/** What the HTML endpoint answered: results, or a sign that it refused to serve a robot. */
export interface DuckDuckGoPage {
  hits: RawSearchHit[];
  blocked: boolean;
  /** False when the page has no results list at all: the markup changed, or it is not a result page. */
  recognised: boolean;
}

// A date DuckDuckGo prints next to some results' URLs, e.g. "2024-01-15T00:00:00.0000000".
const isoDatePrefix = /\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2})?/;

/**
 * Reads the results of html.duckduckgo.com/html: each `.result` block with its `a.result__a`
 * title link and `.result__snippet`. Ads (`.result--ad`, or links through the y.js ad redirect)
 * are skipped, and `//duckduckgo.com/l/?uddg=...` redirect links are decoded to the real URL.
 */
export function parseDuckDuckGoHtml(html: string): DuckDuckGoPage {
  const { document } = parseHTML(html);
  const blocked = document.querySelector('.anomaly-modal, #challenge-form, form[action*="anomaly"]') !== null;
  const recognised = document.querySelector('#links, .results, .no-results, .result') !== null;
  const hits: RawSearchHit[] = [];
  for (const result of document.querySelectorAll('.result')) {
    if (result.classList.contains('result--ad') || result.querySelector('.badge--ad')) continue;
    const link = result.querySelector('a.result__a');
    const url = decodeResultLink(link?.getAttribute('href'));
    if (!link || !url) continue;
    hits.push({
      url,
      title: link.textContent,
      snippet: result.querySelector('.result__snippet')?.textContent,
      date: findDate(result.querySelector('.result__extras__url')?.textContent),
    });
  }
  return { hits, blocked, recognised };
}

/** The target of a result link: uddg of a /l/ redirect, the href itself otherwise; ads give undefined. */
export function decodeResultLink(href: string | null | undefined): string | undefined {
  if (!href) return undefined;
  const absolute = href.startsWith('//') ? `https:${href}` : href;
  if (!URL.canParse(absolute)) return undefined;
  const url = new URL(absolute);
  if (!isDuckDuckGoHost(url.hostname)) return absolute;
  if (url.pathname === '/l/' || url.pathname === '/l') return url.searchParams.get('uddg') ?? undefined;
  // y.js is the ad click redirect; anything else on duckduckgo.com is not a result.
  return undefined;
}

function isDuckDuckGoHost(hostname: string): boolean {
  return hostname === 'duckduckgo.com' || hostname.endsWith('.duckduckgo.com');
}

function findDate(text: string | null | undefined): string | undefined {
  return text ? isoDatePrefix.exec(text)?.[0] : undefined;
}

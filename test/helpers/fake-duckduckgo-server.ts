import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeSearchApi } from './fake-search-api.js';

export interface FakeDuckDuckGoResult {
  url: string;
  title: string;
  snippet?: string;
  /** Printed next to the URL, as DuckDuckGo does for some results. */
  date?: string;
  /** An ad block (result--ad, y.js click link) instead of an organic result. */
  ad?: boolean;
}

export interface FakeDuckDuckGoOptions {
  /** Results for a form `q` value; an unknown query gets the "No results." page. */
  results: (query: string) => FakeDuckDuckGoResult[];
  /** Answer with DuckDuckGo's robot check instead (HTTP 202). */
  challenge?: boolean;
}

/**
 * html.duckduckgo.com on 127.0.0.1: POST /html/ with a form, answering the markup the real
 * endpoint serves (result blocks, /l/?uddg= redirect links, ads first, a "No results." block).
 */
export function startFakeDuckDuckGo(options: FakeDuckDuckGoOptions): Promise<FakeHttpServer> {
  return startFakeSearchApi({
    method: 'POST',
    path: '/html/',
    contentType: 'text/html; charset=UTF-8',
    respond: (request) => {
      if (options.challenge) return challengePage;
      const query = new URLSearchParams(request.body).get('q') ?? '';
      return resultsPage(query, options.results(query));
    },
  });
}

export function resultsPage(query: string, results: FakeDuckDuckGoResult[]): string {
  const blocks = results.length ? results.map(resultBlock).join('\n') : noResultsBlock;
  return `<!DOCTYPE html>
<html lang="en-US"><head><meta charset="UTF-8"><title>${escapeHtml(query)} at DuckDuckGo</title></head>
<body class="body--html">
<div class="header_wrap" id="header_wrapper"><form id="search_form" action="/html/" method="post">
<input type="text" name="q" value="${escapeHtml(query)}"><input type="hidden" name="b" value=""></form></div>
<div><div class="serp__results"><div id="links" class="results">
${blocks}
</div></div></div></body></html>`;
}

function resultBlock(result: FakeDuckDuckGoResult): string {
  const href = result.ad
    ? `https://duckduckgo.com/y.js?ad_domain=${encodeURIComponent(new URL(result.url).hostname)}&amp;ad_provider=bingv7aa`
    : `//duckduckgo.com/l/?uddg=${encodeURIComponent(result.url)}&amp;rut=5f2b9c0d`;
  const classes = result.ad
    ? 'result results_links results_links_deep result--ad result--ad--small'
    : 'result results_links results_links_deep web-result ';
  return `<div class="${classes}">
  <div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="${href}">${result.title}</a></h2>
    <div class="result__extras"><div class="result__extras__url">
      <span class="result__icon"><a rel="nofollow" href="${href}"><img class="result__icon__img" width="16" height="16" alt=""></a></span>
      <a class="result__url" href="${href}">${escapeHtml(new URL(result.url).hostname)}</a>
      ${result.date ? `<span>&nbsp; &nbsp; ${result.date}</span>` : ''}
      ${result.ad ? '<span class="badge--ad">Ad</span>' : ''}
    </div></div>
    <a class="result__snippet" href="${href}">${result.snippet ?? ''}</a>
    <div class="clear"></div>
  </div>
</div>`;
}

const noResultsBlock =
  '<div class="result results_links results_links_deep result--no-result"><div class="no-results">No results.</div></div>';

const challengePage = `<!DOCTYPE html><html><body><div class="anomaly-modal__mask"><div class="anomaly-modal">
<p>Unfortunately, bots use DuckDuckGo too.</p><form id="challenge-form" action="//duckduckgo.com/anomaly.js" method="POST">
<button type="submit">Submit</button></form></div></div></body></html>`;

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');
}

import { describe, expect, it } from 'vitest';
import { extractHtmlPage } from './extract-html-page.js';

const article = (head: string) =>
  `<html><head><title>HCA drops coverage</title>${head}</head><body><article><h1>HCA drops coverage</h1><p>${'HCA Healthcare will stop covering obesity drugs next year. '.repeat(8)}</p></article></body></html>`;

describe('canonicalUrl', () => {
  it('reads rel=canonical, resolved against the page URL', () => {
    const page = extractHtmlPage(
      article('<link rel="canonical" href="/2025/hca-drops-coverage#top">'),
      'https://news.example/amp/2025/hca-drops-coverage',
    );
    expect(page.canonicalUrl).toBe('https://news.example/2025/hca-drops-coverage');
  });

  it('reads a rel list that holds canonical', () => {
    const page = extractHtmlPage(
      article('<link rel="alternate canonical" href="https://news.example/a">'),
      'https://print.news.example/a',
    );
    expect(page.canonicalUrl).toBe('https://news.example/a');
  });

  it('says nothing when the page names itself, names no page, or names a non-web URL', () => {
    const url = 'https://news.example/a';
    expect(
      extractHtmlPage(article(`<link rel="canonical" href="${url}">`), url).canonicalUrl,
    ).toBeUndefined();
    expect(extractHtmlPage(article(''), url).canonicalUrl).toBeUndefined();
    expect(
      extractHtmlPage(article('<link rel="canonical" href="javascript:alert(1)">'), url).canonicalUrl,
    ).toBeUndefined();
  });
});

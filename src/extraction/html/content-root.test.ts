import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { findContentRoot } from './content-root.js';
import { domToText } from './dom-to-text.js';

const sentence = (topic: string) =>
  `${topic} is discussed here at some length, with enough words in the paragraph for it to count as real content.`;

const article = `<h1>Radon map published</h1><p>${sentence('The new radon map')}</p><p>${sentence('Soil measurements')}</p>`;

/** A menu of `count` links, as a site's flyout or mobile navigation holds them. */
function menuLinks(
  count: number,
  link = (href: string, text: string) => `<a href="${href}">${text}</a>`,
): string {
  return Array.from(
    { length: count },
    (_, index) => `<li>${link(`/topic/${index}`, `Topic number ${index}`)}</li>`,
  ).join('');
}

function rootText(body: string): string {
  const { document } = parseHTML(`<html><body>${body}</body></html>`);
  return domToText(findContentRoot(document.querySelector('body')!).element);
}

describe('findContentRoot', () => {
  it("prunes a sidebar widget of links that fills its own box inside the post's content", () => {
    const text = rootText(
      `<div id="content"><div class="entry-content">${article}<div class="widget-sidebar vertical"><div class="post-list">${menuLinks(40)}</div></div></div></div>` +
        `<div id="footer-note"><p>${sentence('A note about the site')}</p></div>`,
    );
    expect(text).toContain('Soil measurements');
    expect(text).not.toContain('Topic number 12');
  });

  it('keeps a box of links named `related` that is the page: a listing of related products', () => {
    const products = menuLinks(30);
    const text = rootText(
      `<h1>Robotic lawn mowers</h1><section class="related-product"><ul>${products}</ul></section>`,
    );
    expect(text).toContain('Topic number 12');
  });

  it('prunes a menu wrapped alone in its own box, longer than the article, when it is links', () => {
    const text = rootText(
      `<div id="wrapper"><div id="n-1"><div class="menu flyout"><ul>${menuLinks(60)}</ul></div></div>` +
        `<div id="main"><div class="article-text">${article}</div></div></div>`,
    );
    expect(text).toContain('Soil measurements');
    expect(text).not.toContain('Topic number 7');
  });

  it('keeps a wrapper named like furniture when it holds the headline or the page <main>', () => {
    const teasers = menuLinks(60);
    const banner = rootText(
      `<div class="page page-banner"><ul>${teasers}</ul><div class="story">${article}</div></div>`,
    );
    expect(banner).toContain('The new radon map');
    const wrapper = rootText(
      `<div id="left-navigation_page-wrapper"><aside><ul>${menuLinks(20)}</ul></aside><main>${article}</main></div>` +
        `<div class="more-info"><p>${sentence('A slider caption')}</p><p>${sentence('Another caption')}</p><p>${sentence('A third caption')}</p></div>` +
        `<div class="more-info"><p>${sentence('A fourth caption')}</p><p>${sentence('A fifth caption')}</p></div>`,
    );
    expect(wrapper).toContain('The new radon map');
  });

  it("reads a web component's name and links: <pp-navigation> of <pp-link href> is a menu", () => {
    const component = (href: string, text: string) =>
      `<pp-link href="${href}"><p class="text">${text}</p></pp-link>`;
    const text = rootText(
      `<pp-navigation title="Main"><pp-list>${menuLinks(60, component)}</pp-list></pp-navigation>` +
        `<div class="content"><article>${article}</article></div>`,
    );
    expect(text).toContain('The new radon map');
    expect(text).not.toContain('Topic number 3');
  });

  it("drops a blog's sidebar of link widgets beside its post when asked, though ours is not mostly prose", () => {
    const widgets = ['Recent comments', 'Archives', 'Categories']
      .map((title) => `<div class="box"><h3>${title}</h3><ul>${menuLinks(12)}</ul></div>`)
      .join('');
    const page = `<div id="main"><div id="main-block">${article}</div><div id="right-block">${widgets}</div></div>`;
    const read = (linkListsBesideProse: boolean) => {
      const { document } = parseHTML(`<html><body>${page}</body></html>`);
      return domToText(findContentRoot(document.querySelector('body')!, { linkListsBesideProse }).element);
    };
    expect(read(true)).toContain('Soil measurements');
    expect(read(true)).not.toContain('Topic number 3');
    // A listing's items are link lists too: without a block of prose beside them nothing goes.
    expect(read(false)).toContain('Topic number 3');
    const { document } = parseHTML(
      `<html><body><div id="main"><p>These are the thirty topics of the archive, <a href="/d">sorted by date</a> and <a href="/n">sorted by name</a>, <a href="/new">newest first</a>. Each one links to <a href="/p">its page</a>, <a href="/f">its feed</a> and <a href="/w">its writers</a>.</p><ul>${menuLinks(30)}</ul></div></body></html>`,
    );
    const listing = findContentRoot(document.querySelector('body')!, { linkListsBesideProse: true });
    expect(domToText(listing.element)).toContain('Topic number 3');
  });

  it('counts a web component with an address as link text', () => {
    const { document } = parseHTML(
      `<html><body><div class="cards">${menuLinks(10, (href, text) => `<x-card href="${href}">${text}</x-card>`)}</div></body></html>`,
    );
    const root = findContentRoot(document.querySelector('body')!);
    expect(root.linkTextLength).toBe(root.textLength);
    expect(root.textLength).toBeGreaterThan(100);
  });
});

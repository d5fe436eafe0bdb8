import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extractHtmlPage } from './extract-html-page.js';
import { extractMainContent } from './extract-main-content.js';

const sentence = (topic: string) =>
  `${topic} is discussed here at some length, with enough words in the paragraph for it to count as real content.`;

const chrome = `<header><a href="/">Logo</a><nav><a href="/a">Products</a><a href="/b">Pricing</a><a href="/c">Blog</a></nav></header>`;
const footer = `<footer><p>© 2026 Example Corp. All rights reserved.</p><a href="/privacy">Privacy</a></footer>`;

function extract(html: string, pageTypes: readonly string[] = []) {
  const { document } = parseHTML(html);
  return extractMainContent(document as unknown as Document, {
    url: 'https://example.com/page',
    pageTypes,
  });
}

describe('extractMainContent', () => {
  it('keeps every post of a forum thread, not just the longest one', () => {
    const posts = [
      'Alice asks about the router',
      'Bob answers with a firmware fix',
      'Carol confirms the fix works',
      'Dan adds a caveat about old models',
    ]
      .map(
        (text, index) =>
          `<article class="post"><div class="author">user${index}</div><p>${sentence(text)}</p></article>`,
      )
      .join('');
    const content = extract(
      `<html><body>${chrome}<main><h1>Router drops Wi-Fi</h1><div class="thread">${posts}</div></main><aside class="sidebar"><p>${sentence('Sidebar promotion')}</p></aside>${footer}</body></html>`,
    );
    for (const text of ['Alice asks', 'Bob answers', 'Carol confirms', 'Dan adds'])
      expect(content.text).toContain(text);
    expect(content.text).not.toContain('Sidebar promotion');
    expect(content.text).not.toContain('All rights reserved');
    expect(content.source).toBe('structure');
  });

  it('keeps the items of a listing with their titles and summaries', () => {
    const items = Array.from(
      { length: 6 },
      (_, index) =>
        `<li><h3><a href="/item/${index}">Item number ${index}</a></h3><p>Summary of item ${index}: ${sentence('This item')}</p></li>`,
    ).join('');
    const content = extract(
      `<html><body>${chrome}<div id="content"><h1>All items</h1><ul class="results">${items}</ul></div>${footer}</body></html>`,
    );
    for (let index = 0; index < 6; index++) expect(content.text).toContain(`Item number ${index}`);
    expect(content.text).not.toContain('Pricing');
  });

  it('drops a grid of related products from a product page but keeps description and specifications', () => {
    const related = Array.from(
      { length: 8 },
      (_, index) =>
        `<div class="card"><a href="/p/${index}">Other kettle model ${index} in brushed steel</a></div>`,
    ).join('');
    const content = extract(
      `<html><body>${chrome}<div class="product"><h1>Kettle 3000</h1><p>${sentence('The Kettle 3000 boils water quickly')}</p><table><tr><th>Capacity</th><td>1.7 l</td></tr><tr><th>Power</th><td>3 kW</td></tr></table><p>${sentence('Its auto shut-off')} ${sentence('The lid')}</p><p>${sentence('The base')} ${sentence('The warranty')}</p><div class="more">${related}</div></div>${footer}</body></html>`,
    );
    expect(content.text).toContain('The Kettle 3000 boils water quickly');
    expect(content.text).toContain('Capacity 1.7 l');
    expect(content.text).not.toContain('Other kettle model');
  });

  it('reads a page served whole inside <noscript>, and ignores a short "enable JavaScript" one', () => {
    const content = extract(
      `<html><body><noscript>Please enable JavaScript.</noscript><div id="app"></div><noscript><div class="topic"><p>${sentence('The first reply')}</p><p>${sentence('The second reply')}</p><p>${sentence('The third reply')}</p><p>${sentence('The fourth reply')}</p><p>${sentence('The fifth reply')}</p><p>${sentence('The sixth reply')}</p><p>${sentence('The seventh reply')}</p></div></noscript></body></html>`,
    );
    expect(content.text).toContain('The first reply');
    expect(content.text).toContain('The seventh reply');
    expect(content.text).not.toContain('enable JavaScript');
  });

  it("keeps Readability's article when it covers the page's text", () => {
    const paragraphs = [
      'Scientists measured',
      'The team found',
      'Further work will',
      'Critics noted',
      'The paper concludes',
    ]
      .map((text) => `<p>${sentence(text)}</p>`)
      .join('');
    const content = extract(
      `<html><body>${chrome}<article><h1>A finding</h1>${paragraphs}</article>${footer}</body></html>`,
    );
    expect(content.source).toBe('readability');
    expect(content.text).toContain('The paper concludes');
    expect(content.text).not.toContain('All rights reserved');
  });

  it("keeps a section whose id is a heading's slug the table of contents links to, whatever its first word", () => {
    const sections = [
      'Menu ideas for a spring wedding',
      'Share plates for the buffet',
      'Footer notes on allergens',
    ]
      .map((title) => {
        const slug = title.toLowerCase().replaceAll(' ', '-');
        return `<div id="${slug}"><h2>${title}</h2><p>${sentence(title)}</p><p>${sentence(`More on ${title}`)}</p></div>`;
      })
      .join('');
    const contents = [
      'Menu ideas for a spring wedding',
      'Share plates for the buffet',
      'Footer notes on allergens',
    ]
      .map(
        (title) =>
          `<li><a href="/blog/catering#${title.toLowerCase().replaceAll(' ', '-')}">${title}</a></li>`,
      )
      .join('');
    const page = `<html><body>${chrome}<article><h1>Catering trends</h1><p>${sentence('Catering')}</p><ul>${contents}</ul>${sections}</article><div id="site-menu-links"><a href="/x">Somewhere</a></div>${footer}</body></html>`;
    const content = extract(page);
    expect(content.text).toContain('More on Menu ideas for a spring wedding');
    expect(content.text).toContain('More on Share plates for the buffet');
    expect(content.text).toContain('More on Footer notes on allergens');
    expect(content.text).not.toContain('Somewhere');
  });

  it("keeps an accordion's title bars (a <header> of a heading inside a list item), not the page's header", () => {
    const folds = ['Advantages of a car loan', 'Advantages of leasing', 'When buying outright pays']
      .map((title) => `<li><header><h3>${title}:</h3></header><div><p>${sentence(title)}</p></div></li>`)
      .join('');
    const page = `<html><body><header><a href="/">Logo</a><span>Compare and save</span></header><article><h1>Lease, finance or buy?</h1><p>${sentence('Choosing how to pay for a car')}</p><ul class="folds">${folds}</ul></article>${footer}</body></html>`;
    const content = extract(page);
    expect(content.text).toContain('Advantages of a car loan:');
    expect(content.text).toContain('When buying outright pays:');
    expect(content.text).not.toContain('Compare and save');
  });

  it('finds the body when a stray element comes before <head>', () => {
    const page = extractHtmlPage(
      `<html><script>var x = 1;</script><head><title>T</title></head><body><article><p>${sentence('A page with a stray script')}</p><p>${sentence('Second paragraph')}</p></article></body></html>`,
      'https://example.com/',
    );
    expect(page.text).toContain('A page with a stray script');
  });

  describe('on news and blog articles', () => {
    const story = [
      'The council voted',
      'Residents said',
      'The mayor argued',
      'Opponents warned',
      'The budget allows',
      'A final vote follows',
    ]
      .map((text) => `<p>${sentence(text)}</p>`)
      .join('');

    it('keeps the article, not a "most popular" list of teaser <article>s beside it', () => {
      const teasers = Array.from(
        { length: 8 },
        (_, index) =>
          `<article class="teaser"><h3><a href="/story/${index}">Popular headline ${index}</a></h3><p>Teaser summary ${index} in a few words.</p></article>`,
      ).join('');
      const content = extract(
        `<html><body>${chrome}<div class="page"><article class="story"><h1>Council passes budget</h1><p class="byline">By A. Writer</p>${story}</article><section class="most-read"><h2>Most popular</h2>${teasers}</section></div>${footer}</body></html>`,
      );
      expect(content.signals.mainArticleShare).toBeGreaterThan(0.5);
      expect(content.source).toBe('readability');
      expect(content.text).toContain('A final vote follows');
      expect(content.text).not.toContain('Popular headline');
      expect(content.text).not.toContain('Teaser summary');
      expect(content.text).not.toContain('Pricing');
    });

    it("keeps the article and drops the readers' comments under it, even when they are longer", () => {
      const comments = Array.from(
        { length: 10 },
        (_, index) =>
          `<li><article class="comment-body"><footer class="comment-meta">reader${index} says:</footer><p>${sentence(`Reader comment ${index}`)}</p></article></li>`,
      ).join('');
      const content = extract(
        `<html><body>${chrome}<div class="site-content"><article class="post"><h1>Council passes budget</h1>${story}${story.replaceAll('<p>', '<p>More: ')}</article><div id="comments" class="comments-area"><h2>10 comments</h2><ol class="comment-list">${comments}</ol></div></div>${footer}</body></html>`,
      );
      expect(content.signals.commentChars).toBeGreaterThan(0);
      expect(content.source).toBe('readability');
      expect(content.text).toContain('A final vote follows');
      expect(content.text).not.toContain('Reader comment');
    });

    it('still keeps every post of a thread whose posts are marked as comments', () => {
      const posts = ['Erin asks about tyres', 'Finn suggests a brand', 'Gail disagrees', 'Hugo sums up']
        .map(
          (text) =>
            `<div class="comment"><span class="user">${text.split(' ')[0]}</span><p>${sentence(text)}</p></div>`,
        )
        .join('');
      const content = extract(
        `<html><body>${chrome}<main><h1>Winter tyres?</h1><div class="comments">${posts}</div></main>${footer}</body></html>`,
      );
      for (const text of ['Erin asks', 'Finn suggests', 'Gail disagrees', 'Hugo sums up'])
        expect(content.text).toContain(text);
    });

    it('keeps the items of a listing made of <article> cards', () => {
      const cards = Array.from(
        { length: 6 },
        (_, index) =>
          `<article class="card"><h2><a href="/post/${index}">Post title ${index}</a></h2><p>${sentence(`Excerpt of post ${index}`)}</p></article>`,
      ).join('');
      const content = extract(
        `<html><body>${chrome}<main><h1>Blog</h1><div class="posts">${cards}</div></main>${footer}</body></html>`,
      );
      for (let index = 0; index < 6; index++) expect(content.text).toContain(`Excerpt of post ${index}`);
    });

    // A short story in a container several levels too high: teasers, related links and a sign-up
    // box take more text than the story itself.
    const relatedTeasers = Array.from(
      { length: 24 },
      (_, index) =>
        `<div class="item"><a href="/story/${index}">Headline of another story number ${index}</a><div>Short blurb ${index}.</div><div>3 hours ago</div></div>`,
    ).join('');
    const longStory = story.replaceAll('</p>', ' It was the main item of the evening.</p>');
    const shortStoryPage = `<html><body>${chrome}<div class="wrap"><div class="main"><h1>Council passes budget</h1>${longStory}</div><div class="more"><div>Sign up for the morning briefing</div>${relatedTeasers}</div></div>${footer}</body></html>`;

    it("takes Readability's tighter article on an article page when ours adds teasers and links", () => {
      const content = extract(shortStoryPage, ['newsarticle']);
      expect(content.signals.containment).toBeGreaterThan(0.9);
      expect(content.signals.readabilityChars).toBeLessThan(content.signals.structureChars / 2);
      expect(content.source).toBe('readability');
      expect(content.text).toContain('A final vote follows');
      expect(content.text).not.toContain('Headline of another story');
    });

    it('keeps our candidate for the same shape on a page that is not an article', () => {
      const content = extract(shortStoryPage, ['collectionpage']);
      expect(content.source).toBe('structure');
      expect(content.text).toContain('Headline of another story number 23');
    });

    it("takes Readability's article when ours is another part of an article page", () => {
      const entries = Array.from({ length: 400 }, (_, index) => `<li>Index entry ${index}</li>`).join('');
      const page = `<html><body><div class="story"><h1>Council passes budget</h1>${longStory}</div><div class="index"><ul>${entries}</ul></div></body></html>`;
      const content = extract(page, ['article']);
      expect(content.signals.containment).toBe(0);
      expect(content.source).toBe('readability');
      expect(content.text).toContain('A final vote follows');
      expect(extract(page).source).toBe('structure');
    });

    it("takes Readability's article on any page when ours is a menu of links elsewhere on it", () => {
      // A mobile menu after the page, with more text than the article and nothing but links.
      const links = Array.from(
        { length: 600 },
        (_, index) => `<li><a href="/s/${index}">Service page ${index}</a></li>`,
      );
      const more = [
        'The opposition',
        'The treasurer',
        'Local businesses',
        'The auditors',
        'Teachers',
        'Parents',
      ]
        .map((text) => `<p>${sentence(text)} Their view was reported at length in the evening.</p>`)
        .join('');
      const page = `<html><body><div id="page"><h1>Council passes budget</h1>${longStory}${more}</div><div class="levels"><ul>${links.join('')}</ul></div></body></html>`;
      const content = extract(page);
      expect(content.signals.structureLinkDensity).toBeGreaterThan(0.8);
      expect(content.signals.containment).toBe(0);
      expect(content.signals.readabilityChars).toBeGreaterThan(1500);
      expect(content.source).toBe('readability');
      expect(content.text).toContain('A final vote follows');
    });
  });

  describe('arbitration with Readability', () => {
    const paragraphs = ['The council voted', 'Residents said', 'The mayor argued', 'A final vote follows']
      .map((text) => `<p>${sentence(text)} It was the main item of the evening.</p>`)
      .join('');
    const comments = ['alice', 'bob', 'carol', 'dan', 'erin', 'frank']
      .map(
        (user, index) =>
          `<div class="entry"><a href="/u/${user}">${user}</a> <span>${index + 1} days ago</span><p>${sentence(`What ${user} thinks of it`)}</p><span>Rating: ${index + 30} Votes</span> <a href="#r">Reply</a></div>`,
      )
      .join('');
    const teasers = Array.from(
      { length: 8 },
      (_, index) =>
        `<div class="card"><h3><a href="/story/${index}">Headline of another story ${index}</a></h3><span>By Jane Doe, 3 March 2024</span><p>A first sentence of it.</p></div>`,
    ).join('');

    it('cuts the comment thread, teaser list and tags from a news page, whichever candidate holds them', () => {
      const page = `<html><body>${chrome}<div class="wrap"><h1>Council passes budget</h1>${paragraphs}<div class="talk"><h2>Top Rated Comments</h2>${comments}</div><div class="more"><h2>More from Example Times</h2>${teasers}</div><div class="labels">Tags: <a href="/t/1">council</a> <a href="/t/2">budget</a></div></div>${footer}</body></html>`;
      const content = extract(page, ['newsarticle']);
      expect(content.text).toContain('A final vote follows');
      expect(content.text).not.toMatch(/days ago|Votes|thinks of it|Headline of another story|Tags:/);
    });

    // A short post on a page that declares no type, in a container that also holds the site's menus
    // and a sidebar of links (classes our pruning does not know): ours is mostly links around it.
    const menu = (name: string, count: number) =>
      `<div class="${name}"><ul>${Array.from({ length: count }, (_, index) => `<li><a href="/${name}/${index}">${name} section ${index}</a></li>`).join('')}</ul></div>`;
    const shortPost = ['The club repainted its jetty', 'Volunteers came from three harbours']
      .map((text) => `<p>${sentence(text)} The work took a whole weekend in May.</p>`)
      .join('');
    const linkPage = (head = '') =>
      `<html><head>${head}</head><body><div class="page">${menu('flyout', 40)}<div class="col"><h1>A new jetty</h1>${shortPost}</div>${menu('archive', 30)}</div></body></html>`;

    it("cuts ours down to a short untyped article Readability found among the page's link lists", () => {
      const content = extract(linkPage());
      expect(content.signals.structureLinkDensity).toBeGreaterThan(0.4);
      expect(content.signals.readabilityChars).toBeLessThan(1000);
      expect(content.text).toContain('Volunteers came from three harbours');
      expect(content.text).not.toMatch(/flyout section|archive section/);
    });

    it("takes Readability's text when it holds every <article> of ours and ours adds only the page's edges", () => {
      const sections = [
        'The race started in fog',
        'Wierer took the lead',
        'The final lap',
        'The podium',
        'The season',
      ]
        .map((text) => `<article class="block"><p>${sentence(text)} ${sentence('More of it')}</p></article>`)
        .join('');
      // Lines Readability drops by their box's class (`extra`) and our pruning does not know.
      const edges = [
        'Did you like the story?',
        'Tell a friend about it',
        'Back to all the news',
        'Print this page',
      ]
        .map((text) => `<div>${text}</div>`)
        .join('');
      const content = extract(
        `<html><body><div class="page"><div class="news"><h1>Wierer wins</h1>${sections}<div class="story-extra">${edges}</div></div></div></body></html>`,
      );
      expect(content.signals.articleElements).toBe(5);
      expect(content.signals.structureChars).toBeLessThan(content.signals.readabilityChars * 1.5);
      expect(content.source).toBe('readability');
      expect(content.text).toContain('The season is discussed');
      expect(content.text).not.toMatch(/Tell a friend|Back to all the news/);
    });

    it("keeps a shop's landing page whole when Readability took its intro: the cards are not links alone", () => {
      const cards = Array.from(
        { length: 14 },
        (_, index) =>
          `<div class="card"><a href="/p/${index}">Whetstone model ${index} with a holder</a><div>$${index + 20}.00</div><div>In stock</div></div>`,
      ).join('');
      const page = `<html><body><div class="page"><div class="col"><h1>A new jetty</h1>${shortPost}</div><div class="grid">${cards}</div></div></body></html>`;
      const content = extract(page);
      expect(content.signals.structureLinkDensity).toBeGreaterThan(0.4);
      expect(content.signals.extraLinkLines).toBeLessThan(0.5);
      expect(content.text).toContain('The club repainted its jetty');
      expect(content.text).toContain('Whetstone model 13 with a holder');
    });

    it('keeps the items of a shop collection (og:type product.group) whose intro Readability took', () => {
      const content = extract(linkPage(), ['product.group']);
      expect(content.source).toBe('structure');
      expect(content.text).toContain('The club repainted its jetty');
      expect(content.text).toContain('archive section 29');
    });
  });
});

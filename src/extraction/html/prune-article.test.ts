import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { extractHtmlPage } from './extract-html-page.js';
import { dropCopyrightNotices, pruneArticle } from './prune-article.js';

// Each paragraph its own words: shingles are a set, and repeated wording would count once.
const details: Record<string, string> = {
  'The council vote': 'passed seven to two after a long night of public comment on road repairs',
  'The budget gap': 'comes to four million dollars, mostly from lower sales tax receipts this spring',
  'The mayor’s answer': 'was to delay two hiring plans and ask the state for bridge money again',
  'The next hearing': 'takes place in March, when residents may speak about the library hours',
  'A recipe': 'needs flour, butter and an hour of patience before anything goes in',
  'The oven': 'should be hot before the tray goes in, or the crust stays pale and soft',
  'The dough': 'rests overnight in the fridge, wrapped tightly so it does not dry out',
  'The icing': 'is sugar and lemon juice whisked until it coats the back of a spoon',
  'The serving': 'works best on the same day, with tea, coffee or a glass of cold milk',
};
const paragraph = (topic: string) =>
  `${topic} ${details[topic]}, as our city desk reported in full this week.`;
const story = ['The council vote', 'The budget gap', 'The mayor’s answer', 'The next hearing'];
const bio =
  'Jane Doe covers city hall and has written for the paper since 2010, after years at a wire service.';
const donate =
  'Since you made it to the bottom of this article, please consider a gift to support our newsroom.';

function content(inner: string): Element {
  const { document } = parseHTML(`<html><body><div id="content">${inner}</div></body></html>`);
  return document.querySelector('#content') as unknown as Element;
}

const articleHtml = [
  '<figure><img src="a.jpg"><figcaption>Council members at Tuesday’s meeting. Photo by A. Person</figcaption></figure>',
  ...story.map((topic) => `<p>${paragraph(topic)}</p>`),
  `<div class="bio"><p>${bio}</p></div>`,
  `<p>${donate}</p>`,
].join('');

describe('pruneArticle', () => {
  it('drops what the full articleBody lacks, and captions', () => {
    const element = content(articleHtml);
    const text = pruneArticle(element, { articleBody: story.map(paragraph).join('\n\n') });
    for (const topic of story) expect(text).toContain(topic);
    expect(text).not.toContain('Jane Doe');
    expect(text).not.toContain('Since you made it');
    expect(text).not.toContain('Photo by');
    expect(element.querySelector('.bio p')).toBeNull();
  });

  it('keeps every paragraph when the articleBody is a teaser excerpt, and drops only captions', () => {
    const excerpt = `${paragraph(story[0]!)} ${paragraph(story[1]!)}`;
    const text = pruneArticle(content(articleHtml), { articleBody: excerpt });
    expect(text).toContain('Jane Doe');
    expect(text).toContain('Since you made it');
    expect(text).not.toContain('Photo by');
  });

  it('keeps everything when the articleBody is another text or missing', () => {
    const other = ['A recipe', 'The oven', 'The dough', 'The icing', 'The serving'].map(paragraph).join(' ');
    expect(pruneArticle(content(articleHtml), { articleBody: other })).toContain('Jane Doe');
    expect(pruneArticle(content(articleHtml), {})).toContain('Since you made it');
  });

  it('matches an articleBody written as HTML with entities', () => {
    const html = story.map((topic) => `<p>${paragraph(topic).replace('’', '&rsquo;')}</p>`).join('');
    const text = pruneArticle(content(articleHtml), { articleBody: html });
    expect(text).toContain('The mayor’s answer');
    expect(text).not.toContain('Jane Doe');
  });
});

describe('extractHtmlPage on a news article with JSON-LD articleBody', () => {
  it('trims the markdown and text to the article', () => {
    const jsonLd = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      headline: 'Council passes budget',
      articleBody: story.map(paragraph).join('\n\n'),
    });
    const page = extractHtmlPage(
      `<html><head><title>Council passes budget</title><script type="application/ld+json">${jsonLd}</script></head><body><main><article><h1>Council passes budget</h1>${articleHtml}</article></main></body></html>`,
      'https://news.example.com/budget',
    );
    for (const topic of story) expect(page.text).toContain(topic);
    expect(page.text).not.toContain('Jane Doe');
    expect(page.markdown).not.toContain('Jane Doe');
    expect(page.markdown).not.toContain('Photo by');
    expect(page.markdown).toContain('The next hearing');
  });
});

describe('pruneArticle on a news story or blog post', () => {
  const storyHtml = [
    ...story.map((topic) => `<p>${paragraph(topic)}</p>`),
    `<div class="post-author-box"><img src="jane.jpg"><p>${bio}</p></div>`,
    '<p class="affiliate-disclosure">We may earn a commission when you buy through links on this page.</p>',
  ].join('');

  it('drops author boxes and disclosures named by their class, without an articleBody', () => {
    const text = pruneArticle(content(storyHtml), { story: true });
    for (const topic of story) expect(text).toContain(topic);
    expect(text).not.toContain('Jane Doe');
    expect(text).not.toContain('commission');
  });

  it('keeps them on a page that only says "Article" (a CMS types every page so)', () => {
    const text = pruneArticle(content(storyHtml), {});
    expect(text).toContain('Jane Doe');
    expect(text).toContain('commission');
  });

  it('keeps marked elements that are the content: many of them, or much of the text', () => {
    const reviews = ['Alice', 'Bob', 'Carol', 'Dan']
      .map((name, index) => `<p>${paragraph(story[index]!)}</p><div class="review-author">${name} M.</div>`)
      .join('');
    expect(pruneArticle(content(reviews), { story: true })).toContain('Carol M.');
    const card = `<div class="entry-author-card"><p>${paragraph(story[0]!)}</p><p>${paragraph(story[1]!)}</p></div>`;
    const text = pruneArticle(content(`${card}<p>${paragraph(story[2]!)}</p>`), { story: true });
    expect(text).toContain('The budget gap');
  });

  it('matches class words whole: an "authority" section stays', () => {
    const text = pruneArticle(
      content(
        `${story.map((topic) => `<p>${paragraph(topic)}</p>`).join('')}<div class="authority-note"><p>${bio}</p></div>`,
      ),
      { story: true },
    );
    expect(text).toContain('Jane Doe');
  });
});

describe('extractHtmlPage on a news story without articleBody', () => {
  it("drops the author box from Readability's article (its class names are kept for this)", () => {
    const jsonLd = JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      headline: 'Budget',
    });
    const page = extractHtmlPage(
      `<html><head><title>Budget</title><script type="application/ld+json">${jsonLd}</script></head><body><main><article><h1>Council passes budget</h1>${story.map((topic) => `<p>${paragraph(topic)}</p>`).join('')}<div class="author-bio"><img src="jane.jpg"><p>${bio}</p><a href="/staff/jane">More by Jane Doe</a></div><p>Copyright © 2026 City Paper. All rights reserved.</p></article></main></body></html>`,
      'https://news.example.com/budget',
    );
    expect(page.text).toContain('The next hearing');
    expect(page.text).not.toContain('Jane Doe');
    expect(page.markdown).not.toContain('Jane Doe');
    expect(page.text).not.toContain('City Paper');
  });
});

describe('dropCopyrightNotices', () => {
  it('drops short copyright lines and keeps prose about copyright and preformatted text', () => {
    const element = content(
      [
        `<p>${paragraph(story[0]!)}</p>`,
        '<p>Copyright © 2025 Example Broadcasting. All Rights Reserved.</p>',
        '<p>©Photo Agency</p>',
        '<h2>Copyright law in a fragmented world</h2>',
        '<pre>Copyright 1998-2026 Free Software Foundation, Inc.</pre>',
      ].join(''),
    );
    expect(dropCopyrightNotices(element)).toBe(true);
    const text = element.textContent ?? '';
    expect(text).toContain('The council vote');
    expect(text).not.toContain('Example Broadcasting');
    expect(text).not.toContain('Photo Agency');
    expect(text).toContain('Copyright law in a fragmented world');
    expect(text).toContain('Free Software Foundation');
    expect(dropCopyrightNotices(content(`<p>${paragraph(story[1]!)}</p>`))).toBe(false);
  });
});

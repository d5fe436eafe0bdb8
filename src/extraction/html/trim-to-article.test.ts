import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { domToText } from './dom-to-text.js';
import { trimToArticle } from './trim-to-article.js';

const paragraph = (topic: string) =>
  `${topic} takes a whole paragraph here, long enough to count as prose rather than as a title, a label, a caption or a teaser line.`;

function root(html: string): Element {
  const { document } = parseHTML(`<html><body><div id="root">${html}</div></body></html>`);
  return document.querySelector('#root') as unknown as Element;
}

const story = ['The first finding', 'The second finding', 'The third finding'].map(paragraph);
const storyHtml = `<div class="story">${story.map((text) => `<p>${text}</p>`).join('')}</div>`;

describe('trimToArticle', () => {
  it('cuts the comment thread and the teasers after the article Readability found', () => {
    const comments = ['alice', 'bob']
      .map(
        (user) =>
          `<div class="note"><a href="/u/${user}">${user}</a> <span>2 days ago</span><p>${paragraph(`What ${user} thinks`)}</p><a href="#">Reply</a> <span>Rating: 3 Votes</span></div>`,
      )
      .join('');
    const teasers = [1, 2, 3]
      .map(
        (index) =>
          `<div class="card"><a href="/s/${index}">Another headline ${index}</a><span>Jane Doe · 2 March</span></div>`,
      )
      .join('');
    const element = root(
      `${storyHtml}<div class="thread">${comments}</div><div class="more">${teasers}</div>`,
    );
    expect(trimToArticle(element, story.join('\n'))).toBe(true);
    expect(domToText(element)).toBe(story.join('\n'));
  });

  it('keeps prose after the article that Readability dropped, up to the first box', () => {
    const extra = paragraph('A closing paragraph Readability missed');
    const element = root(
      `${storyHtml}<p>${extra}</p><div><h3>Related stories</h3><a href="/a">One story</a><a href="/b">Another story</a></div>`,
    );
    expect(trimToArticle(element, story.join('\n'))).toBe(true);
    expect(domToText(element)).toBe([...story, extra].join('\n'));
  });

  it('cuts a tag cloud inside the article span', () => {
    const element = root(
      `<p>${story[0]}</p><div class="tags">Tags: <a href="/t/a">economy</a> <a href="/t/b">trade</a></div><p>${story[1]}</p>`,
    );
    trimToArticle(element, [story[0], story[1]].join('\n'));
    expect(domToText(element)).toBe([story[0], story[1]].join('\n'));
  });

  it("ends the article before the boxes when Readability also kept the site's copyright line", () => {
    const teasers = [1, 2, 3]
      .map(
        (index) =>
          `<div class="box"><h3><a href="/s/${index}">Another headline ${index}</a></h3><p>${paragraph(`Another story's lede ${index}`)}</p></div>`,
      )
      .join('');
    const copyright = '© 2017 Example News. All rights reserved.';
    const element = root(
      `${storyHtml}<div>Get our stories in a weekly newsletter</div><div class="more">${teasers}</div><p>${copyright}</p>`,
    );
    expect(trimToArticle(element, [...story, copyright].join('\n'))).toBe(true);
    expect(domToText(element)).toBe(story.join('\n'));
  });

  it('leaves a thread whole when Readability kept one of its posts', () => {
    const posts = ['Alice', 'Bob', 'Carol']
      .map((user) => `<div class="post"><span>${user}</span><p>${paragraph(`${user}'s answer`)}</p></div>`)
      .join('');
    const element = root(posts);
    const before = domToText(element);
    expect(trimToArticle(element, paragraph("Alice's answer"))).toBe(false);
    expect(domToText(element)).toBe(before);
  });

  it('does not cut when Readability picked a box and ours holds the article beside it', () => {
    const teaserLedes = [1, 2].map((index) => paragraph(`Teaser lede ${index}`));
    const element = root(
      `${storyHtml}<div class="aside-box"><h2>Recommended</h2>${teaserLedes.map((text) => `<p>${text}</p>`).join('')}</div>`,
    );
    const before = domToText(element);
    expect(trimToArticle(element, teaserLedes.join('\n'))).toBe(false);
    expect(domToText(element)).toBe(before);
  });
});

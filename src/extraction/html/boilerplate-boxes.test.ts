import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import {
  boilerplateKind,
  isCommentThread,
  isRelatedBox,
  isTagCloud,
  isTeaserList,
} from './boilerplate-boxes.js';

function element(html: string): Element {
  const { document } = parseHTML(`<html><body>${html}</body></html>`);
  return document.querySelector('body')!.firstElementChild as unknown as Element;
}

const sentence = (topic: string) =>
  `${topic} is what this paragraph is about, written out at a length that reads as prose and not as a label.`;

describe('isCommentThread', () => {
  it('sees alike items with a user, a time, a text and votes', () => {
    const comments = ['alice', 'bob', 'carol']
      .map(
        (user, index) =>
          `<div class="entry"><a href="/u/${user}">${user}</a><span>${index + 2} days ago</span><p>${sentence('My view')}</p><span>Rating: 36 Votes</span> <a href="#">Reply</a></div>`,
      )
      .join('');
    expect(isCommentThread(element(`<div>${comments}</div>`))).toBe(true);
    expect(boilerplateKind(element(`<div>${comments}</div>`))).toBe('comments');
  });

  it('sees a section marked or headed as comments', () => {
    expect(isCommentThread(element(`<section id="comments"><p>${sentence('A reply')}</p></section>`))).toBe(
      true,
    );
    expect(isCommentThread(element(`<div><h3>12 Comments</h3><p>${sentence('A reply')}</p></div>`))).toBe(
      true,
    );
    expect(
      isCommentThread(element(`<div><h2>Top Rated Comments</h2><p>${sentence('A reply')}</p></div>`)),
    ).toBe(true);
  });

  it('does not see an article of paragraphs as a thread', () => {
    const article = `<div class="body"><h2>The findings</h2><p>${sentence('The study')}</p><p>${sentence('The method, described on 12.03.2021 at 10:00,')}</p><p>${sentence('The outcome')}</p></div>`;
    expect(isCommentThread(element(article))).toBe(false);
    expect(boilerplateKind(element(article))).toBeUndefined();
  });
});

describe('isTeaserList', () => {
  it('sees repeated blocks of a headline link, a byline and date, and a short lede', () => {
    const teasers = [1, 2, 3, 4]
      .map(
        (index) =>
          `<div class="card"><h3><a href="/story-${index}">Headline of another story number ${index}</a></h3><span>By Jane Doe · 3 March 2024</span><p>A first sentence.</p></div>`,
      )
      .join('');
    expect(isTeaserList(element(`<div>${teasers}</div>`))).toBe(true);
  });

  it('sees repeated blocks of a linked headline over a lede of a sentence or two', () => {
    const teasers = [1, 2, 3, 4]
      .map(
        (index) =>
          `<div class="box"><a href="/s/${index}"><img src="/t.jpg" alt=""></a><h3><a href="/s/${index}">Headline of another story ${index}</a></h3><p>${sentence(`Another story's lede ${index}`)} More of it follows on its own page.</p></div>`,
      )
      .join('');
    expect(isTeaserList(element(`<div>${teasers}</div>`))).toBe(true);
  });

  it("does not see an article's sections, each a heading over a paragraph, as teasers", () => {
    const sections = [1, 2, 3, 4]
      .map(
        (index) =>
          `<div class="section"><h3>Part ${index} of the findings</h3><p>${sentence(`Finding ${index}`)} It <a href="/source">cites a source</a>.</p></div>`,
      )
      .join('');
    expect(isTeaserList(element(`<div>${sections}</div>`))).toBe(false);
  });

  it('does not see a list of prose items as teasers', () => {
    const items = [1, 2, 3, 4].map((index) => `<li>${sentence(`Step ${index}`)}</li>`).join('');
    expect(isTeaserList(element(`<ul>${items}</ul>`))).toBe(false);
  });
});

describe('isRelatedBox', () => {
  it('sees a box marked or headed as related, more from, recommended or trending', () => {
    expect(isRelatedBox(element(`<div class="related-posts"><a href="/x">Another story</a></div>`))).toBe(
      true,
    );
    expect(
      isRelatedBox(element(`<div><h2>More from Example News</h2><a href="/x">Another story</a></div>`)),
    ).toBe(true);
    expect(isRelatedBox(element(`<section><h3>Trending</h3><a href="/x">Another story</a></section>`))).toBe(
      true,
    );
    expect(isRelatedBox(element(`<div><h4>Lesen Sie auch</h4><a href="/x">Noch ein Artikel</a></div>`))).toBe(
      true,
    );
  });

  it('does not see a section of the article as a related box', () => {
    expect(
      isRelatedBox(
        element(`<section><h2>Related work in the field</h2><p>${sentence('Prior work')}</p></section>`),
      ),
    ).toBe(false);
    expect(isRelatedBox(element(`<div><h2>Results</h2><p>${sentence('The outcome')}</p></div>`))).toBe(false);
  });
});

describe('isTagCloud', () => {
  it('sees short links labelled or marked as tags', () => {
    expect(
      isTagCloud(
        element(
          `<div>Tags: <a href="/t/a">economy</a>, <a href="/t/b">trade</a>, <a href="/t/c">Europe</a></div>`,
        ),
      ),
    ).toBe(true);
    expect(
      isTagCloud(
        element(
          `<ul class="post-tags"><li><a href="/t/a">economy</a></li><li><a href="/t/b">trade</a></li></ul>`,
        ),
      ),
    ).toBe(true);
  });

  it('does not see a paragraph with a few links as tags', () => {
    expect(
      isTagCloud(
        element(`<p>${sentence('Trade')} See <a href="/a">the report</a> and <a href="/b">the data</a>.</p>`),
      ),
    ).toBe(false);
  });
});

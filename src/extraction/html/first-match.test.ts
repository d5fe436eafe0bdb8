import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { firstMatchIn, namedSelector, subjectTag } from './first-match.js';

const page = (head: string, body: string) =>
  parseHTML(`<!doctype html><html><head><title>T</title>${head}</head><body>${body}</body></html>`).document;

// The selectors the metadata readers try, and others of each form the finder treats apart.
const selectors = [
  'meta[property="article:published_time"]',
  'meta[name="DC.date.issued"]',
  'meta[name="dc.date"]',
  'meta[itemprop="datePublished"]',
  'meta[name="author"]',
  'meta[property="og:title"]',
  'time[itemprop="datePublished"]',
  'time[pubdate]',
  'time.entry-date.published',
  '.posted-on time.published',
  'span[property="dc:date dc:created"]',
  'article time[datetime]',
  'main time[datetime]',
  '.field--name-changed time',
  'link[rel~="canonical"]',
  'meta[http-equiv="Content-Type"]',
  '.byline',
  'title',
  'section',
];

describe('firstMatchIn', () => {
  const documents = {
    'metas in head and body, repeated names, values differing by case': page(
      '<meta name="dc.date" content="2020-01-01"><meta name="DC.date.issued" content="2021-02-02"><meta name="author" content="A"><meta name="author" content="B"><meta http-equiv="content-type" content="text/html"><link rel="Canonical" href="https://x.test/c">',
      '<article><meta itemprop="datePublished" content="2019-03-03"><p class="byline">By C</p><time datetime="2019-03-03">3 March</time></article><span property="dc:date dc:created">2018</span>',
    ),
    'WordPress and Drupal markup, a <time pubdate>': page(
      '',
      '<div class="posted-on"><a><time class="entry-date published" datetime="2022-05-05">May 5</time><time class="updated" datetime="2022-06-06">June 6</time></a></div><div class="field--name-changed"><time>7 July 2022</time></div><main><time pubdate datetime="2022-01-01">then</time></main>',
    ),
    'no meta tags and no <time> at all': page('', '<p>Nothing dated here.</p>'),
    'more <time> elements than the finder tests one by one': page(
      '',
      `${'<p><time datetime="2001-01-01">x</time></p>'.repeat(40)}<article><time class="entry-date published" datetime="2002-02-02">y</time></article>`,
    ),
  };

  for (const [name, document] of Object.entries(documents)) {
    it(`finds for every selector the element querySelector finds: ${name}`, () => {
      const find = firstMatchIn(document);
      for (const selector of selectors) {
        expect({ selector, found: find(selector) }).toEqual({
          selector,
          found: document.querySelector(selector),
        });
        expect(find(selector) === document.querySelector(selector)).toBe(true);
      }
    });
  }

  it('finds the elements it should, not only what querySelector happens to miss', () => {
    const find = firstMatchIn(documents['metas in head and body, repeated names, values differing by case']);
    expect(find('meta[name="author"]')?.getAttribute('content')).toBe('A');
    expect(find('meta[name="DC.date.issued"]')?.getAttribute('content')).toBe('2021-02-02');
    expect(find('meta[name="dc.date.issued"]')).toBeNull();
    expect(find('meta[itemprop="datePublished"]')?.getAttribute('content')).toBe('2019-03-03');
    expect(find('span[property="dc:date dc:created"]')?.textContent).toBe('2018');
    const wordpress = firstMatchIn(documents['WordPress and Drupal markup, a <time pubdate>']);
    expect(wordpress('.posted-on time.published')?.getAttribute('datetime')).toBe('2022-05-05');
    expect(wordpress('time[pubdate]')?.getAttribute('datetime')).toBe('2022-01-01');
    expect(firstMatchIn(documents['no meta tags and no <time> at all'])('time.updated')).toBeNull();
  });

  it('walks the document once per tag, not once per selector', () => {
    const document = documents['metas in head and body, repeated names, values differing by case'];
    const walked: string[] = [];
    const counting = {
      querySelector: (selector: string) => {
        walked.push(selector);
        return document.querySelector(selector);
      },
      getElementsByTagName: (tag: string) => {
        walked.push(`<${tag}>`);
        return document.getElementsByTagName(tag);
      },
    };
    const find = firstMatchIn(counting);
    for (const selector of selectors.slice(0, 14)) find(selector);
    expect(walked.sort()).toEqual(['<meta>', '<span>', '<time>']);
  });
});

describe('the selector forms', () => {
  it('reads tag[attribute="value"] and tag[attribute] for attributes compared as written', () => {
    expect(namedSelector('meta[property="og:title"]')).toEqual({
      tag: 'meta',
      attribute: 'property',
      value: 'og:title',
    });
    expect(namedSelector('time[pubdate]')).toEqual({ tag: 'time', attribute: 'pubdate' });
    // HTML compares http-equiv and rel without case: left to the selector engine.
    expect(namedSelector('meta[http-equiv="content-type"]')).toBeUndefined();
    expect(namedSelector('link[rel~="canonical"]')).toBeUndefined();
    expect(namedSelector('article time[datetime]')).toBeUndefined();
  });

  it('names the element a selector selects by its last compound', () => {
    expect(subjectTag('.posted-on time.published')).toBe('time');
    expect(subjectTag('article > time[datetime]')).toBe('time');
    expect(subjectTag('time.entry-date.updated')).toBe('time');
    expect(subjectTag('.byline')).toBeUndefined();
    expect(subjectTag('time, span')).toBeUndefined();
    expect(subjectTag('time:first-child')).toBeUndefined();
    expect(subjectTag('span[property="dc:date dc:created"]')).toBeUndefined();
  });
});

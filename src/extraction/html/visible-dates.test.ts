import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { readPageMetadata } from './page-metadata.js';
import { leadingText, parseWrittenDate, readVisibleDates } from './visible-dates.js';

const dates = (body: string, head = '') =>
  readVisibleDates(parseHTML(`<html><head>${head}</head><body>${body}</body></html>`).document);

describe('readVisibleDates', () => {
  it('reads the <time> elements of WordPress, Ghost and Drupal themes', () => {
    expect(
      dates(
        '<span class="posted-on"><time class="entry-date published" datetime="2024-03-05T09:00:00+01:00">March 5</time><time class="updated" datetime="2024-04-01T10:00:00Z">April 1</time></span>',
      ),
    ).toEqual({ publishedAt: '2024-03-05T08:00:00.000Z', modifiedAt: '2024-04-01T10:00:00.000Z' });
    expect(dates('<time class="byline-meta-date" datetime="2023-11-20">20 Nov 2023</time>').publishedAt).toBe(
      '2023-11-20T00:00:00.000Z',
    );
    expect(dates('<div class="field--name-created"><time>12 January 2022</time></div>').publishedAt).toBe(
      '2022-01-12T00:00:00.000Z',
    );
  });

  it('takes a <time datetime> inside the article', () => {
    expect(
      dates('<article><p>By Ann · <time datetime="2025-06-30">yesterday</time></p></article>').publishedAt,
    ).toBe('2025-06-30T00:00:00.000Z');
  });

  it('reads labelled dates written in the text, published and updated apart', () => {
    expect(dates('<p>By Ann. Published on March 5, 2024 · Last updated: 2024-06-01</p><p>Body.</p>')).toEqual(
      {
        publishedAt: '2024-03-05T00:00:00.000Z',
        modifiedAt: '2024-06-01T00:00:00.000Z',
      },
    );
    expect(dates('<p>Posted 3rd Feb. 2021 in News</p>').publishedAt).toBe('2021-02-03T00:00:00.000Z');
  });

  it('ignores unlabelled dates and dates far down the page', () => {
    expect(dates('<p>The treaty of March 5, 2024 changed things.</p>')).toEqual({});
    expect(dates(`<p>${'Long text. '.repeat(600)}</p><p>Updated: 2020-01-01</p>`)).toEqual({});
  });

  it('is only a fallback: meta tags win', () => {
    const { document } = parseHTML(
      '<html><head><meta property="article:published_time" content="2019-02-25T08:00:00Z"></head><body><p>Published March 5, 2024</p></body></html>',
    );
    expect(readPageMetadata(document).publishedAt).toBe('2019-02-25T08:00:00.000Z');
  });
});

describe('parseWrittenDate', () => {
  it.each([
    ['2024-03-05', '2024-03-05T00:00:00.000Z'],
    ['March 5, 2024', '2024-03-05T00:00:00.000Z'],
    ['5 Mar 2024', '2024-03-05T00:00:00.000Z'],
    ['Sept. 30th, 2023', '2023-09-30T00:00:00.000Z'],
  ])('reads %s as UTC midnight', (input, expected) => {
    expect(parseWrittenDate(input)).toBe(expected);
  });

  it.each(['February 30, 2024', 'March 2024', 'yesterday'])('gives undefined for %s', (input) => {
    expect(parseWrittenDate(input)).toBeUndefined();
  });
});

describe('leadingText', () => {
  const bodies = {
    'whitespace runs across elements and text nodes': `<p>  Published \n</p>\n\n<p>\t on <b> March</b>   5,\u00a0\u00a02024 </p>  <div>  </div><span> </span>end`,
    'scripts, styles and comments, as textContent has them': `<script>var a = "  x  ";</script><!-- not text --><style>p { }</style><p>after</p>`,
    'nested deep, then a long tail': `${'<div>'.repeat(30)}deep${'</div>'.repeat(30)}${'<p>word   word</p>\n'.repeat(2000)}`,
    'no text at all': '<div><img src="a.png"></div>',
  };
  for (const [name, html] of Object.entries(bodies)) {
    it(`is the body's textContent with whitespace runs as one space, cut: ${name}`, () => {
      const body = parseHTML(`<html><body>${html}</body></html>`).document.querySelector('body')!;
      const whole = (body.textContent ?? '').replace(/\s+/g, ' ');
      for (const chars of [0, 1, 7, 12, 40, 5000, 50_000]) {
        expect(leadingText(body as never, chars)).toBe(whole.slice(0, chars));
      }
    });
  }
});

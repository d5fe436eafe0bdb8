import { describe, expect, it } from 'vitest';
import { otherArticle, syndicatedCopy, wireStory } from '../../test/fixtures/wire-story.js';
import { estimateSimilarity, exactOverlap, fingerprintText } from './minhash.js';
import {
  countCitedStories,
  countIndependentSources,
  describeAlsoAt,
  type GroupablePage,
  PageGrouper,
  quotesByStory,
} from './page-groups.js';

const page = (url: string, text: string, extra: Partial<GroupablePage> = {}): GroupablePage => ({
  url,
  text,
  ...extra,
});

describe('fingerprintText', () => {
  it('ignores case, punctuation and markdown marks, and sees word order', () => {
    const a = fingerprintText('The quick brown fox jumps over the lazy dog.');
    const b = fingerprintText('**the QUICK brown fox** — jumps over, the lazy dog');
    const c = fingerprintText('The lazy dog jumps over the quick brown fox.');
    expect([...a.shingles]).toEqual([...b.shingles]);
    expect(exactOverlap(a, c).jaccard).toBeLessThan(0.2);
  });

  it('estimates Jaccard similarity from the signatures', () => {
    const a = fingerprintText(wireStory);
    const b = fingerprintText(syndicatedCopy);
    const exact = exactOverlap(a, b).jaccard;
    expect(Math.abs(estimateSimilarity(a, b) - exact)).toBeLessThan(0.2);
    expect(estimateSimilarity(a, fingerprintText(otherArticle))).toBeLessThan(0.1);
  });

  it('gives an empty text no shingles and compares it with nothing', () => {
    const empty = fingerprintText('  — ');
    expect(empty.shingles.length).toBe(0);
    expect(estimateSimilarity(empty, empty)).toBe(0);
  });
});

describe('PageGrouper', () => {
  it('groups a syndicated copy with its own chrome and a changed first line, not another article on the event', () => {
    const pages = [
      page('https://health-wire.example/2025/hca-obesity-drugs', syndicatedCopy),
      page('https://www.statnews.com/2025/12/18/weight-loss-drugs-wegovy-zepbound-health-plans/', wireStory, {
        publishedAt: '2025-12-18',
      }),
      page('https://business-daily.example/hca-drops-wegovy', otherArticle),
    ];
    const grouping = new PageGrouper().group(pages);
    expect(grouping.groups).toHaveLength(2);
    const story = grouping.groupOf(pages[0]!.url)!;
    expect(story.copies.map((copy) => copy.url)).toHaveLength(1);
    expect(grouping.groupOf(pages[2]!.url)!.copies).toEqual([]);
    expect(
      countIndependentSources(
        pages.map((item) => item.url),
        grouping,
      ),
    ).toBe(2);
  });

  it('cites the earliest-dated page as the original, else the first read', () => {
    const dated = new PageGrouper().group([
      page('https://a.example/story', wireStory, { publishedAt: '2025-12-19T08:00:00Z' }),
      page('https://b.example/story', syndicatedCopy, { publishedAt: '2025-12-18T10:00:00Z' }),
      page('https://c.example/story', `${wireStory}\n\nShare this article.`),
    ]);
    expect(dated.groups).toHaveLength(1);
    expect(dated.groups[0]!.original.url).toBe('https://b.example/story');
    expect(dated.groups[0]!.copies.map((copy) => copy.url)).toEqual([
      'https://a.example/story',
      'https://c.example/story',
    ]);
    const undated = new PageGrouper().group([
      page('https://a.example/story', syndicatedCopy),
      page('https://b.example/story', wireStory),
    ]);
    expect(undated.groups[0]!.original.url).toBe('https://a.example/story');
  });

  it('groups AMP and print versions by rel=canonical and cites the canonical page', () => {
    const canonical = 'https://news.example/2025/hca-drops-coverage';
    const grouping = new PageGrouper().group([
      page('https://news.example/amp/2025/hca-drops-coverage', 'HCA drops coverage (AMP).', {
        canonicalUrl: canonical,
        publishedAt: '2025-01-01',
      }),
      page(`${canonical}?print=1`, 'Print version: HCA drops coverage of obesity drugs.', {
        canonicalUrl: canonical,
      }),
      page(canonical, otherArticle, { canonicalUrl: canonical, publishedAt: '2025-12-18' }),
      page('https://elsewhere.example/unrelated', wireStory),
    ]);
    expect(grouping.groups).toHaveLength(2);
    const group = grouping.groupOf(canonical)!;
    expect(group.original.url).toBe(canonical);
    expect(group.copies).toHaveLength(2);
    expect(grouping.sourceKeyOf('https://news.example/amp/2025/hca-drops-coverage')).toBe(
      'news.example/2025/hca-drops-coverage',
    );
  });

  it('groups two copies naming one canonical page that was not read', () => {
    const grouping = new PageGrouper().group([
      page('https://m.example/a', 'Short mobile text.', { canonicalUrl: 'https://example.com/a' }),
      page('https://amp.example/a', 'Short amp text.', { canonicalUrl: 'https://example.com/a' }),
    ]);
    expect(grouping.groups).toHaveLength(1);
  });

  it('does not make a page that quotes one paragraph of a story a copy of it', () => {
    const digest = `${otherArticle}\n\n${wireStory.split('\n\n')[1]}`;
    const grouping = new PageGrouper().group([
      page('https://a.example/story', wireStory),
      page('https://digest.example/today', digest),
    ]);
    expect(grouping.groups).toHaveLength(2);
  });

  it('leaves stubs alone even when they are the same words', () => {
    const grouping = new PageGrouper().group([
      page('https://a.example/', 'Subscribe to read this article.'),
      page('https://b.example/', 'Subscribe to read this article.'),
    ]);
    expect(grouping.groups).toHaveLength(2);
  });

  it('keys URLs that are not pages by their own URL key', () => {
    const grouping = new PageGrouper().group([page('https://a.example/story', wireStory)]);
    expect(grouping.sourceKeyOf('https://www.hit.example/x/')).toBe('hit.example/x');
    expect(grouping.groupOf('https://www.hit.example/x/')).toBeUndefined();
  });

  it('hashes a page once across groupings', () => {
    const grouper = new PageGrouper();
    const story = page('https://a.example/story', wireStory);
    const first = grouper.fingerprintOf(story);
    grouper.group([story, page('https://b.example/story', syndicatedCopy)]);
    expect(grouper.fingerprintOf(story)).toBe(first);
  });
});

describe('quotesByStory', () => {
  it('keeps one quote per story and wording and counts the stories', () => {
    const grouping = new PageGrouper().group([
      page('https://a.example/story', wireStory),
      page('https://b.example/story', syndicatedCopy),
      page('https://c.example/other', otherArticle),
    ]);
    const quote = 'HCA declined to comment.';
    const result = quotesByStory(
      [
        { url: 'https://a.example/story', quote },
        { url: 'https://b.example/story', quote: 'HCA declined to comment' },
        { url: 'https://b.example/story', quote: 'By Staff and wire reports' },
        { url: 'https://c.example/other', quote: 'An HCA spokesperson did not respond' },
      ],
      grouping,
    );
    expect(result.sources).toBe(2);
    expect(result.quotes.map((item) => item.quote)).toEqual([
      quote,
      'By Staff and wire reports',
      'An HCA spokesperson did not respond',
    ]);
  });
});

describe('describeAlsoAt', () => {
  it('names the copies by host, a few of them', () => {
    expect(describeAlsoAt(['https://www.b.example/x'])).toBe('also at 1 site: b.example');
    expect(
      describeAlsoAt([
        'https://b.example/1',
        'https://b.example/2',
        'https://c.example/',
        'https://d.example/',
        'https://e.example/',
      ]),
    ).toBe('also at 5 sites: b.example, c.example, d.example, +1');
    expect(describeAlsoAt([])).toBe('');
  });
});

describe('countCitedStories', () => {
  it('counts references naming one page, or one listing the other among its copies, as one story', () => {
    expect(
      countCitedStories([
        { url: 'https://a.example/story', alsoAt: ['https://b.example/copy'] },
        { url: 'https://www.a.example/story/' },
        { url: 'https://b.example/copy' },
        { url: 'https://c.example/other' },
      ]),
    ).toBe(2);
    expect(countCitedStories([])).toBe(0);
  });
});

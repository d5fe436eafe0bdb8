import { describe, expect, it } from 'vitest';
import { HostHealth } from './host-health.js';
import { rankUrls, type UrlCandidate } from './rank-urls.js';

const candidate = (url: string, extra: Partial<UrlCandidate> = {}): UrlCandidate => ({
  url,
  host: new URL(url).hostname.replace(/^www\./, ''),
  title: '',
  snippet: '',
  anchors: [],
  hits: 1,
  ...extra,
});

describe('rankUrls', () => {
  it('puts the URL whose title, snippet or anchor text answers the question first, with reasons', () => {
    const ranked = rankUrls(
      [
        candidate('https://a.example/cooking', { title: 'Cooking pasta at home' }),
        candidate('https://b.example/oscars', {
          title: '91st Academy Awards',
          snippet: 'Green Book won Best Picture',
        }),
        candidate('https://c.example/x', { anchors: ['weather today'] }),
      ],
      { question: 'which film won best picture' },
    );
    expect(ranked[0]!.candidate.url).toBe('https://b.example/oscars');
    expect(ranked[0]!.reasons.relevance).toBe(1);
    expect(ranked[0]!.weight).toBeGreaterThan(ranked[1]!.weight);
  });

  it('uses reranker scores when given instead of BM25', () => {
    const list = [
      candidate('https://a.example/1', { title: 'best picture' }),
      candidate('https://b.example/2', { title: 'unrelated' }),
    ];
    const ranked = rankUrls(list, { question: 'best picture', relevance: [0.1, 0.9] });
    expect(ranked.map((entry) => entry.candidate.url)).toEqual([
      'https://b.example/2',
      'https://a.example/1',
    ]);
    expect(ranked[0]!.reasons.relevance).toBeCloseTo(0.9);
  });

  it('rewards URLs seen often, popular hosts and shared path hierarchies', () => {
    const list = [
      candidate('https://docs.example/api/v1/a', { hits: 3 }),
      candidate('https://docs.example/api/v1/b'),
      candidate('https://docs.example/api/v1/c'),
      candidate('https://lonely.example/deep/er/page'),
    ];
    const ranked = rankUrls(list, { question: 'nothing matches', perHostCap: 5 });
    const byUrl = new Map(ranked.map((entry) => [entry.candidate.url, entry]));
    expect(byUrl.get('https://docs.example/api/v1/a')!.reasons.frequency).toBe(1);
    expect(byUrl.get('https://docs.example/api/v1/b')!.reasons.host).toBe(1);
    expect(byUrl.get('https://lonely.example/deep/er/page')!.reasons.host).toBe(0);
    expect(byUrl.get('https://docs.example/api/v1/b')!.reasons.path).toBeGreaterThan(
      byUrl.get('https://lonely.example/deep/er/page')!.reasons.path,
    );
    expect(ranked.at(-1)!.candidate.url).toBe('https://lonely.example/deep/er/page');
  });

  it('caps URLs per host for diversity and honours the limit', () => {
    const list = [1, 2, 3, 4].map((n) => candidate(`https://same.example/p${n}`, { title: 'topic' }));
    list.push(candidate('https://other.example/p', { title: 'topic' }));
    const ranked = rankUrls(list, { question: 'topic', perHostCap: 2 });
    expect(ranked.filter((entry) => entry.candidate.host === 'same.example')).toHaveLength(2);
    expect(rankUrls(list, { question: 'topic', perHostCap: 2, limit: 1 })).toHaveLength(1);
  });

  it('ranks local sources (file:, kb:) outside the host lists, penalties and per-host cap', () => {
    const local = ['file:///docs/a.md', 'file:///docs/b.md', 'file:///docs/c.md', 'kb:notes/d'].map((url) =>
      candidate(url, { host: '', title: 'topic' }),
    );
    const ranked = rankUrls([...local, candidate('https://web.example/p', { title: 'topic' })], {
      question: 'topic',
      perHostCap: 1,
      hosts: { only: ['web.example'], bad: [''] },
      hostPenalty: () => 0.9,
    });
    expect(ranked.map((entry) => entry.candidate.url).sort()).toEqual(
      [...local.map((entry) => entry.url), 'https://web.example/p'].sort(),
    );
    const localReasons = ranked.find((entry) => entry.candidate.url === 'kb:notes/d')!.reasons;
    expect(localReasons).toMatchObject({ host: 0, boost: 0, penalty: 0 });
  });

  it('drops bad hosts and, with an only list, every other host; boosts listed hosts', () => {
    const list = [
      candidate('https://en.wikipedia.org/wiki/X', { title: 'x' }),
      candidate('https://spam.example/x', { title: 'x x x' }),
      candidate('https://blog.example/x', { title: 'x' }),
    ];
    const bad = rankUrls(list, { question: 'x', hosts: { bad: ['spam.example'] } });
    expect(bad.map((entry) => entry.candidate.host)).not.toContain('spam.example');
    const only = rankUrls(list, { question: 'x', hosts: { only: ['wikipedia.org'] } });
    expect(only.map((entry) => entry.candidate.host)).toEqual(['en.wikipedia.org']);
    const boosted = rankUrls(list, { question: 'x', hosts: { boost: ['blog.example'] } });
    expect(boosted[0]!.candidate.host).toBe('blog.example');
    expect(boosted[0]!.reasons.boost).toBe(1);
  });

  it('ranks newer pages higher only when freshness is asked for', () => {
    const list = [
      candidate('https://a.example/old', { title: 'release', publishedAt: '2015-01-01T00:00:00Z' }),
      candidate('https://b.example/new', { title: 'release', publishedAt: '2026-11-01T00:00:00Z' }),
    ];
    const now = new Date('2026-11-21T00:00:00Z');
    const fresh = rankUrls(list, { question: 'release', freshnessNow: now });
    expect(fresh[0]!.candidate.url).toBe('https://b.example/new');
    expect(fresh[0]!.reasons.freshness).toBeGreaterThan(0.9);
    expect(rankUrls(list, { question: 'release' })[0]!.reasons.freshness).toBe(0);
    const httpDate = candidate('https://c.example/x', { publishedAt: 'Sun, 01 Nov 2026 00:00:00 GMT' });
    const unknown = candidate('https://d.example/x', { publishedAt: 'sometime' });
    const [dated, undated] = rankUrls([httpDate, unknown], { question: 'x', freshnessNow: now });
    expect(dated!.reasons.freshness).toBeGreaterThan(0.9);
    expect(undated!.reasons.freshness).toBe(0);
  });

  it('sinks hosts that failed or were paywalled before', () => {
    const health = new HostHealth();
    const now = new Date('2026-11-21T00:00:00Z');
    health.record('paywall.example', 'paywalled', now);
    health.record('paywall.example', 'failed', now);
    const list = [
      candidate('https://paywall.example/story', { title: 'election results' }),
      candidate('https://open.example/story', { title: 'election results' }),
    ];
    const ranked = rankUrls(list, {
      question: 'election results',
      hostPenalty: (host) => health.penalty(host, now),
    });
    expect(ranked[0]!.candidate.host).toBe('open.example');
    expect(ranked[1]!.reasons.penalty).toBeGreaterThan(0.5);
  });

  it('ranks a trusted host above an equally relevant doubtful one, and says why', () => {
    const health = new HostHealth();
    const list = [
      candidate('http://tide-tables-4567.xyz/brest', { title: 'brest tides' }),
      candidate('https://tides.gov/brest', { title: 'brest tides' }),
      candidate('kb:notes/abc#chunk-0', { host: '', title: 'brest tides' }),
    ];
    const ranked = rankUrls(list, {
      question: 'brest tides',
      trust: (url) => health.trustOf(url).trust.score,
    });
    const web = ranked.filter((entry) => entry.candidate.host !== '');
    expect(web.map((entry) => entry.candidate.url)).toEqual([
      'https://tides.gov/brest',
      'http://tide-tables-4567.xyz/brest',
    ]);
    expect(web[0]!.reasons.trust).toBeGreaterThan(0.7);
    expect(web[1]!.reasons.trust).toBeLessThan(0.3);
    // Local sources have no host to trust or doubt.
    expect(ranked.find((entry) => entry.candidate.host === '')!.reasons.trust).toBe(0);
    expect(rankUrls(list, { question: 'brest tides' })[0]!.reasons.trust).toBe(0);
  });

  it('returns nothing for no candidates', () => {
    expect(rankUrls([], { question: 'q' })).toEqual([]);
  });
});

describe('rankUrls with --since', () => {
  it('halves the weight of a page dated before it, and leaves undated and newer pages alone', () => {
    const pages = [
      candidate('https://a.example/old', { title: 'heat pump sales', publishedAt: '2024-01-10' }),
      candidate('https://b.example/new', { title: 'heat pump sales', publishedAt: '2026-11-20' }),
      candidate('https://c.example/undated', { title: 'heat pump sales' }),
    ];
    const question = 'heat pump sales';
    const without = rankUrls(pages, { question });
    const scoped = rankUrls(pages, { question, since: new Date('2026-11-01T00:00:00Z') });
    const weightOf = (ranked: typeof scoped, url: string) =>
      ranked.find((entry) => entry.candidate.url === url)!;
    expect(weightOf(scoped, 'https://a.example/old').reasons.penalty).toBe(0.5);
    expect(weightOf(scoped, 'https://a.example/old').weight).toBeCloseTo(
      weightOf(without, 'https://a.example/old').weight / 2,
      2,
    );
    expect(weightOf(scoped, 'https://b.example/new').weight).toBe(
      weightOf(without, 'https://b.example/new').weight,
    );
    expect(weightOf(scoped, 'https://c.example/undated').weight).toBe(
      weightOf(without, 'https://c.example/undated').weight,
    );
    expect(scoped.at(-1)!.candidate.url).toBe('https://a.example/old');
  });
});

import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors/index.js';
import { createLexicalEmbedding } from '../../src/providers/embedding/lexical-embedding.js';
import type { EmbeddingProvider } from '../../src/providers/spec/embedding-provider.js';
import type { PageReader } from '../../src/providers/spec/page-reader.js';
import type { Reranker } from '../../src/providers/spec/reranker.js';
import { HostHealth } from '../../src/retrieval/host-health.js';
import { createFakeReader } from '../../src/testing/fake-reader.js';
import { createFakeSearch } from '../../src/testing/fake-search.js';
import { scriptedStep } from '../../src/testing/scripted-steps.js';
import { eventsOf, oscarsPage, parasiteHits, runAgent } from '../helpers/agent-harness.js';

const question = 'Who directed the film that won Best Picture the year Parasite premiered?';
const oscarsUrl = 'https://en.wikipedia.org/wiki/91st_Academy_Awards';
const hit = (url: string, title: string, snippet = '') => ({ url, title, snippet });

describe('query dedup and rewrite in the search step', () => {
  it('drops repeats, rewrites with the rewriter role, dedups the rewrites, and passes time range and language', async () => {
    const search = createFakeSearch({ 'Parasite premiere': [parasiteHits[0]!] });
    const { llm, events } = await runAgent(question, {
      config: { retrieval: { queryRewrite: true }, budget: { maxSteps: 3 } },
      searchProvider: search,
      steps: [
        scriptedStep.search(['Parasite premiere', 'parasite  PREMIERE!']),
        scriptedStep.rewrite(['Parasite premiere', 'Parasite Cannes 2019 premiere date']),
        scriptedStep.search(['Best Picture 2019 winner', 'Parasite premiere']),
        {
          ...scriptedStep.rewrite([
            { query: 'Oscar Best Picture 2019 winner', timeRange: 'year' },
            { query: 'Oscar du meilleur film 2019', language: 'fr' },
            'Parasite   premiere',
          ]),
          expect: { schemaName: 'query_rewrite', promptIncludes: '- Best Picture 2019 winner' },
        },
        scriptedStep.finalAnswer('Peter Farrelly.'),
      ],
    });
    llm.assertConsumed();
    expect(search.calls.map((call) => call.query)).toEqual([
      'Parasite premiere',
      'Parasite Cannes 2019 premiere date',
      'Oscar Best Picture 2019 winner',
      'Oscar du meilleur film 2019',
    ]);
    expect(search.calls[2]!.options).toMatchObject({ timeRange: 'year' });
    expect(search.calls[3]!.options).toMatchObject({ language: 'fr' });
    const plans = eventsOf(events, 'search-plan');
    expect(plans[0]!.duplicates.map((duplicate) => duplicate.query)).toEqual(['parasite PREMIERE!']);
    expect(plans[1]!.duplicates.map((duplicate) => duplicate.query)).toEqual([
      'Parasite premiere',
      'Parasite premiere',
    ]);
    expect(plans[1]!.embedding).toBe('built-in lexical');
  });

  it('searches the agent queries as they are when the rewriter fails, and keeps iPhone 15 and 16 apart', async () => {
    const search = createFakeSearch({});
    const { llm, events } = await runAgent('iPhone battery life', {
      config: { retrieval: { queryRewrite: true }, budget: { maxSteps: 2 } },
      searchProvider: search,
      steps: [
        scriptedStep.search(['iPhone 15 battery life', 'iPhone 16 battery life']),
        { label: 'rewrite broken', expect: { schemaName: 'query_rewrite' }, text: 'not json at all' },
        { label: 'rewrite broken again', expect: { schemaName: 'query_rewrite' }, text: '{"nope": 1}' },
        scriptedStep.finalAnswer('About a day.'),
      ],
    });
    llm.assertConsumed();
    expect(search.calls.map((call) => call.query)).toEqual([
      'iPhone 15 battery life',
      'iPhone 16 battery life',
    ]);
    // In a person's words; the validator's field paths only in the detail (--debug).
    const warning = eventsOf(events, 'warning').find((event) =>
      event.message.startsWith('the query rewriter'),
    );
    expect(warning?.message).toBe(
      "the query rewriter: the model's reply could not be used; searching the agent's own queries",
    );
    expect(warning?.detail).toContain('`queries`');
  });

  it('drops hits on bad hosts and restricts a single only-host to a site search', async () => {
    const search = createFakeSearch({
      q: [hit('https://spam.example/a', 'spam'), hit('https://en.wikipedia.org/wiki/A', 'wiki')],
    });
    const { result } = await runAgent('q', {
      config: {
        search: { badHostnames: ['spam.example'], onlyHostnames: ['wikipedia.org'] },
        budget: { maxSteps: 2 },
      },
      searchProvider: search,
      steps: [scriptedStep.search(['q']), scriptedStep.finalAnswer('A.')],
    });
    expect(search.calls[0]!.options).toMatchObject({ site: 'wikipedia.org' });
    expect(result.usage.searchCalls).toBe(1);
  });
});

describe('URL ranking in the loop', () => {
  const hits = {
    awards: [
      hit('https://blog.example/movies', 'My favourite movies', 'cats and dogs'),
      hit(oscarsUrl, '91st Academy Awards', 'Green Book won Best Picture'),
      hit('https://spam.example/oscars', 'Best Picture winner Green Book', 'Best Picture Best Picture'),
    ],
  };

  it('shows URLs ranked by weight, without bad hosts, and reports the reasons', async () => {
    const { llm, events } = await runAgent(question, {
      config: { search: { badHostnames: ['spam.example'] }, budget: { maxSteps: 3 } },
      search: hits,
      pages: { [oscarsUrl]: oscarsPage },
      steps: [
        scriptedStep.search(['awards']),
        {
          ...scriptedStep.visit(['1']),
          expect: {
            schemaName: 'agent_action',
            promptIncludes: `[1] weight`,
            promptExcludes: 'spam.example',
          },
        },
        scriptedStep.finalAnswer('Peter Farrelly.'),
      ],
    });
    llm.assertConsumed();
    const [ranking] = eventsOf(events, 'url-ranking');
    expect(ranking!.reranker).toBe('built-in BM25');
    expect(ranking!.urls[0]!.url).toBe(oscarsUrl);
    expect(ranking!.urls[0]!.reasons.relevance).toBe(1);
    expect(ranking!.urls.map((entry) => entry.url)).not.toContain('https://spam.example/oscars');
    expect(eventsOf(events, 'read-end')[0]).toMatchObject({ url: oscarsUrl, ok: true });
  });

  it('awaits a rerank service and orders the list by its scores, once per question and URL', async () => {
    const calls: string[][] = [];
    const reranker: Reranker = {
      specificationVersion: 'v1',
      id: 'test-reranker',
      model: 'm',
      builtin: false,
      rerank: async (_query, documents) => {
        calls.push([...documents]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return documents.map((document) => (document.includes('cats and dogs') ? 0.99 : 0.01));
      },
    };
    const { llm, events } = await runAgent(question, {
      search: hits,
      reranker,
      config: { budget: { maxSteps: 5 } },
      steps: [
        scriptedStep.search(['awards']),
        { ...scriptedStep.reflect(['Which film won?']), expect: { promptIncludes: '[1] weight' } },
        scriptedStep.reflect(['Who directed it?']),
        scriptedStep.reflect(['In which year?']),
        scriptedStep.finalAnswer('Peter Farrelly.'),
      ],
    });
    llm.assertConsumed();
    const rankings = eventsOf(events, 'url-ranking');
    expect(rankings[0]!.reranker).toBe('test-reranker m');
    expect(rankings[0]!.urls[0]!.url).toBe('https://blog.example/movies');
    expect(llm.calls[1]!.prompt).toMatch(/\[1\] weight [\d.]+ https:\/\/blog\.example\/movies/);
    // The original question is ranked twice (steps 2 and 4) but its URLs are reranked once.
    expect(rankings.map((ranking) => ranking.question)).toEqual([question, 'Which film won?', question]);
    expect(calls).toHaveLength(2);
    expect(calls.every((documents) => documents.length === 3)).toBe(true);
  });

  it('records failed and paywalled hosts, and sinks them in later rankings', async () => {
    const health = new HostHealth();
    const reader: PageReader = {
      specificationVersion: 'v1',
      id: 'paywall',
      read: async (url) => {
        if (url.includes('paywall.example')) {
          throw new ProviderError(`${url} answered HTTP 403`, { providerId: 'builtin', statusCode: 403 });
        }
        return createFakeReader({ [oscarsUrl]: oscarsPage }).read(url);
      },
    };
    await runAgent(question, {
      search: {
        awards: [hit('https://paywall.example/story', 'Best Picture'), hit(oscarsUrl, '91st Academy Awards')],
      },
      reader,
      hostHealth: health,
      config: { budget: { maxSteps: 3 } },
      steps: [
        scriptedStep.search(['awards']),
        scriptedStep.visit(['https://paywall.example/story', oscarsUrl]),
        scriptedStep.finalAnswer('x'),
      ],
    });
    expect(health.penalty('paywall.example')).toBeGreaterThan(0.5);
    expect(health.penalty('en.wikipedia.org')).toBe(0);
  });

  it('does not take a paywall teaser as the page: it is skipped as a paywall, its host remembered as walled', async () => {
    const health = new HostHealth();
    const teaserUrl = 'https://news.example/bridge';
    const teaser =
      '<html><head><title>Bridge</title></head><body><article><h1>Bridge</h1><p>The council voted on Tuesday to close the old bridge to cars, officials said.</p><p>Subscribe to continue reading. Already a subscriber? Sign in.</p></article></body></html>';
    const { events, result } = await runAgent(question, {
      search: { bridge: [hit(teaserUrl, 'Bridge closes')] },
      pages: { [teaserUrl]: teaser },
      hostHealth: health,
      config: { budget: { maxSteps: 3 } },
      steps: [
        scriptedStep.search(['bridge']),
        scriptedStep.visit([teaserUrl]),
        {
          ...scriptedStep.finalAnswer('x'),
          expect: {
            promptIncludes: `could not read ${teaserUrl}`,
            promptExcludes: 'close the old bridge to cars, officials',
          },
        },
      ],
    });
    expect(eventsOf(events, 'read-end')).toContainEqual(
      expect.objectContaining({
        url: teaserUrl,
        ok: false,
        error: 'only a paywall teaser where the article should be',
      }),
    );
    expect(result.skipped).toEqual([
      { url: teaserUrl, reason: 'paywall', detail: 'only a paywall teaser where the article should be' },
    ]);
    expect(result.visitedUrls).not.toContain(teaserUrl);
    expect(health.penalty('news.example')).toBeGreaterThan(0.5);
  });
});

describe('embeddings in the loop', () => {
  it('embeds page chunks as passages with late chunking and the step question as a query', async () => {
    const lexical = createLexicalEmbedding();
    const seen: Array<{ task: string; lateChunking: boolean | undefined; count: number }> = [];
    const embedding: EmbeddingProvider = {
      specificationVersion: 'v1',
      id: 'test-embedding',
      model: 'm',
      builtin: false,
      embed: (texts, options) => {
        seen.push({ task: options.task, lateChunking: options.lateChunking, count: texts.length });
        return lexical.embed(texts, options);
      },
    };
    const longPage = `<html><body><article><h1>Awards</h1>${Array.from({ length: 40 }, (_, index) => `<p>Paragraph ${index} says that ceremony number ${index} was long and full of speeches about cinema.</p>`).join('')}<p>Green Book won Best Picture. The film was directed by Peter Farrelly.</p></article></body></html>`;
    const { llm } = await runAgent(question, {
      embedding,
      search: { awards: [hit(oscarsUrl, '91st Academy Awards')] },
      pages: { [oscarsUrl]: longPage },
      config: { budget: { maxSteps: 4 } },
      steps: [
        scriptedStep.search(['awards']),
        scriptedStep.visit([oscarsUrl]),
        {
          ...scriptedStep.reflect(['Who directed Green Book?']),
          expect: { promptIncludes: 'directed by Peter Farrelly' },
        },
        scriptedStep.finalAnswer('Peter Farrelly.'),
      ],
    });
    llm.assertConsumed();
    expect(seen.find((call) => call.task === 'passage')).toMatchObject({ lateChunking: true });
    expect(seen.find((call) => call.task === 'passage')!.count).toBeGreaterThan(1);
    expect(seen.some((call) => call.task === 'query' && call.count === 1)).toBe(true);
  });
});

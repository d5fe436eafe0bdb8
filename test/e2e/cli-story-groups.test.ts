import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import {
  type FakeOpenAiRequest,
  type FakeOpenAiServer,
  startFakeOpenAi,
} from '../../src/testing/fake-openai-server.js';
import { otherArticle, syndicatedCopy, wireStory } from '../fixtures/wire-story.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { alwaysPassingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';
import { serveBuiltCli } from '../helpers/serve-built-cli.js';

const question = 'Why did HCA stop covering Wegovy and Zepbound for its employees?';
const surged = 'HCA said use of the GLP-1 weight loss drugs surged 90% this year';
const steered =
  'Staff who want to keep taking the injections were steered to the direct-to-consumer pharmacies';

/** A news page: the site's own chrome around the article. */
function newsPage(options: {
  site: string;
  title: string;
  date: string;
  text: string;
  nav: string[];
}): string {
  const paragraphs = options.text
    .split('\n\n')
    .map((paragraph) => `<p>${paragraph}</p>`)
    .join('\n');
  return `<!DOCTYPE html><html><head><title>${options.title} | ${options.site}</title>
<meta property="article:published_time" content="${options.date}"></head><body>
<header><nav>${options.nav.map((item) => `<a href="/${item.toLowerCase()}">${item}</a>`).join(' ')}</nav></header>
<main><article><h1>${options.title}</h1>
${paragraphs}
</article></main>
<aside><h2>Most read on ${options.site}</h2><ul><li><a href="/a">Hospital mergers slow</a></li><li><a href="/b">Nurses vote to strike</a></li></ul></aside>
<footer><p>© 2025 ${options.site}. All rights reserved.</p><a href="/privacy">Privacy</a></footer></body></html>`;
}

// Two sites carry one story (each with its own chrome, the copy with a reworded first line);
// a third has another article on the same event.
let original: FakeHttpServer;
let syndicator: FakeHttpServer;
let other: FakeHttpServer;
let searxng: FakeHttpServer;
let urls: { original: string; copy: string; other: string };

beforeAll(async () => {
  original = await startFakeWeb({
    pages: {
      '/2025/12/18/hca-obesity-drugs': {
        html: newsPage({
          site: 'Health News',
          title: 'HCA tells workers to buy obesity drugs themselves',
          date: '2025-12-18T10:00:00Z',
          text: wireStory,
          nav: ['Health', 'Pharma', 'Policy'],
        }),
      },
    },
  });
  syndicator = await startFakeWeb({
    pages: {
      '/wire/hca-obesity-drugs': {
        html: newsPage({
          site: 'Daily Courier',
          title: 'HCA drops coverage of Wegovy, Zepbound',
          date: '2025-12-19T06:30:00Z',
          text: syndicatedCopy,
          nav: ['Local', 'Sports', 'Weather', 'Obituaries'],
        }),
      },
    },
  });
  other = await startFakeWeb({
    pages: {
      '/hca-wegovy-memo': {
        html: newsPage({
          site: 'Business Daily',
          title: 'HCA ends employee coverage of weight-loss shots',
          date: '2025-12-18T15:00:00Z',
          text: otherArticle,
          nav: ['Markets', 'Companies'],
        }),
      },
    },
  });
  urls = {
    original: `${original.url}/2025/12/18/hca-obesity-drugs`,
    copy: `${syndicator.url}/wire/hca-obesity-drugs`,
    other: `${other.url}/hca-wegovy-memo`,
  };
  searxng = await startFakeSearxng({
    results: {
      'HCA Wegovy Zepbound coverage': [
        { url: urls.copy, title: 'HCA drops coverage of Wegovy, Zepbound', content: 'HCA Healthcare...' },
        { url: urls.original, title: 'HCA tells workers to buy obesity drugs', content: 'When HCA...' },
        { url: urls.other, title: 'HCA ends employee coverage', content: 'Hospital operator HCA...' },
      ],
    },
  });
});

afterAll(async () => {
  await Promise.all([original.close(), syndicator.close(), other.close(), searxng.close()]);
});

const reply = (object: unknown) => ({
  content: JSON.stringify(object),
  usage: { prompt_tokens: 900, completion_tokens: 60 },
});

/** Searches, reads the three pages, then cites the story on both sites and the other article. */
function agent(request: FakeOpenAiRequest) {
  if (request.prompt.includes('steered to the direct-to-consumer'))
    return reply({
      think: 'All three read.',
      action: 'answer',
      answer: {
        text: 'Use of the drugs surged 90%[^1][^2], and staff were sent to the makers’ own pharmacies.[^3]',
        references: [
          { url: urls.copy, quote: surged },
          { url: urls.original, quote: surged },
          { url: urls.other, quote: steered },
        ],
      },
    });
  if (request.prompt.includes(urls.other))
    return reply({
      think: 'Read them.',
      action: 'visit',
      visit: { targets: [urls.copy, urls.original, urls.other] },
    });
  return reply({ think: 'Search.', action: 'search', search: { queries: ['HCA Wegovy Zepbound coverage'] } });
}

async function startLlm(): Promise<FakeOpenAiServer> {
  return startFakeOpenAi({
    routes: {
      agent_action: agent,
      query_rewrite: () =>
        reply({
          think: 'fine',
          queries: [{ query: 'HCA Wegovy Zepbound coverage', timeRange: 'none', language: '' }],
        }),
      ...alwaysPassingEvaluation(reply),
    },
  });
}

const env = (llm: FakeOpenAiServer) => ({
  DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
  DEEPSEARCH_LLM_MODEL: 'fake-model',
  DEEPSEARCH_SEARCH_PROVIDER: 'searxng',
  DEEPSEARCH_SEARXNG_URL: searxng.url,
  DEEPSEARCH_ALLOW_PRIVATE_NETWORK: '1',
  DEEPSEARCH_READER: 'builtin',
});

describe('one story counted once (built CLI, a local web where two sites carry one article)', () => {
  it('ask --json: the copy is cited once at the original with alsoAt, and the answer counts two independent sources', async () => {
    const llm = await startLlm();
    try {
      const run = await runBuiltCli(['ask', question, '--json'], env(llm), { timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result.visitedUrls).toEqual(expect.arrayContaining([urls.copy, urls.original, urls.other]));
      // The earliest-dated page is the original; the same quote from both sites is one reference.
      expect(result.references).toMatchObject([
        { index: 1, url: urls.original, quote: surged, alsoAt: [urls.copy] },
        { index: 2, url: urls.other },
      ]);
      expect(result.references[1]).not.toHaveProperty('alsoAt');
      expect(result.answer).toContain('surged 90%[^1]');
      expect(result.answer).not.toContain('[^3]');
      expect(result.independentSources).toBe(2);
      expect(result.confidenceReason).toContain(
        '2 verified quotes from 2 independent sources (1 more site carries the same text)',
      );
    } finally {
      await llm.close();
    }
  });

  it('ask: the sources list shows the story once, "also at 1 site"', async () => {
    const llm = await startLlm();
    try {
      const run = await runBuiltCli(['ask', question], env(llm), { timeoutMs: 60_000 });
      expect(run.code, run.stderr).toBe(0);
      const sources = run.stdout.slice(run.stdout.indexOf('Sources'));
      expect(sources.match(/^\[\^\d+\]:/gm)).toHaveLength(2);
      expect(sources).toContain(`[^1]: HCA tells workers to buy obesity drugs themselves <${urls.original}>`);
      expect(sources).toContain('also at 1 site: 127.0.0.1');
      expect(sources).not.toContain(`<${urls.copy}>`);
    } finally {
      await llm.close();
    }
  });

  it('serve: the API lists the story once, with also_at, in deepsearch.references and the footnotes', async () => {
    const llm = await startLlm();
    const server = await serveBuiltCli({ ...env(llm), DEEPSEARCH_NO_RUNS: '1' });
    try {
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'deepsearch', messages: [{ role: 'user', content: question }] }),
      });
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.deepsearch.references).toEqual([
        expect.objectContaining({ index: 1, url: urls.original, also_at: [urls.copy] }),
        expect.not.objectContaining({ also_at: expect.anything() }),
      ]);
      expect(body.deepsearch.confidence_reason).toContain('from 2 independent sources');
      expect(body.deepsearch.independent_sources).toBe(2);
      const content: string = body.choices[0].message.content;
      expect(content).toContain(`[^1]: "${surged}"`);
      expect(content).toContain('(also at 1 site: 127.0.0.1)');
      expect(content).not.toContain(urls.copy);
    } finally {
      await server.stop();
      await llm.close();
    }
  });
});

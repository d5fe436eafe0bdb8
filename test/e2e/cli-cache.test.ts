import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { type FakeOpenAiServer, startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { oscarsPage } from '../helpers/agent-harness.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { passingEvaluation } from '../helpers/passing-evaluation.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

let dir: string;
let web: FakeHttpServer;
let searxng: FakeHttpServer;
const llms: FakeOpenAiServer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-cache-e2e-'));
  web = await startFakeWeb({ pages: { '/oscars': { html: oscarsPage } } });
  searxng = await startFakeSearxng({
    results: () => [
      { url: `${web.url}/oscars`, title: '91st Academy Awards', content: 'Green Book won Best Picture.' },
    ],
  });
});

afterAll(async () => {
  await web.close();
  await searxng.close();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(llms.splice(0).map((llm) => llm.close()));
});

function cacheEnv(name: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DEEPSEARCH_SEARXNG_URL: searxng.url,
    DEEPSEARCH_NO_CACHE: '0',
    DEEPSEARCH_CACHE_DIR: join(dir, name),
    ...extra,
  };
}

const searchRequests = () => searxng.requests.length;
const pageRequests = () => web.requests.filter((request) => request.path === '/oscars').length;

describe('the on-disk cache (built CLI)', () => {
  it('answers a repeated search from the cache, asks again with --no-cache, and keeps the file where told', async () => {
    const before = searchRequests();
    const env = cacheEnv('search');
    const args = ['search', 'best picture 2019', '--json', '--allow-private-network'];
    const first = await runBuiltCli(args, env);
    const second = await runBuiltCli(args, env);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).hits).toHaveLength(1);
    expect(second.stdout).toBe(first.stdout);
    expect(searchRequests() - before).toBe(1);
    await runBuiltCli([...args, '--no-cache'], env);
    expect(searchRequests() - before).toBe(2);
    expect(existsSync(join(dir, 'search', 'cache.sqlite'))).toBe(true);
  });

  // The fresh/expired boundary is tested with a fake clock in sqlite-cache.test.ts; this checks the
  // variable reaches the cache (a process starts too slowly here to time a short TTL from outside).
  it('honours DEEPSEARCH_CACHE_TTL_SEARCH: an expired entry is searched again', async () => {
    const before = searchRequests();
    const env = cacheEnv('expiry', { DEEPSEARCH_CACHE_TTL_SEARCH: '1' });
    const args = ['search', 'oscars', '--json', '--allow-private-network'];
    const first = await runBuiltCli(args, env);
    expect(JSON.parse(first.stdout).hits).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await runBuiltCli(args, env);
    expect(searchRequests() - before).toBe(2);
  });

  it('costs no search and no page fetch when the same question is asked again', async () => {
    const reply = (object: unknown) => ({
      content: JSON.stringify(object),
      usage: { prompt_tokens: 100, completion_tokens: 10 },
    });
    const oneRun = {
      agent_action: [
        reply({ think: 'Search.', action: 'search', search: { queries: ['Best Picture 2019'] } }),
        reply({ think: 'Read.', action: 'visit', visit: { targets: [`${web.url}/oscars`] } }),
        reply({
          think: 'Found.',
          action: 'answer',
          answer: {
            text: 'Green Book[^1].',
            references: [
              {
                url: `${web.url}/oscars`,
                quote: 'Green Book won Best Picture. The film was directed by Peter Farrelly.',
              },
            ],
          },
        }),
      ],
      ...passingEvaluation(reply, 'ok'),
      // The rewriter (on by default) keeps the query, so the second run's search is the cached one.
      query_rewrite: [
        reply({
          think: 'Already a keyword query.',
          queries: [{ query: 'Best Picture 2019', timeRange: 'none', language: '' }],
        }),
      ],
    };
    const llm = await startFakeOpenAi({
      routes: Object.fromEntries(
        Object.entries(oneRun).map(([route, replies]) => [route, [...replies, ...replies]]),
      ),
    });
    llms.push(llm);
    const env = cacheEnv('ask', {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
    });
    const args = ['ask', 'Which film won Best Picture in 2019?', '--json', '--allow-private-network'];
    const searchesBefore = searchRequests();
    const pagesBefore = pageRequests();
    const first = await runBuiltCli(args, env);
    expect(first.code).toBe(0);
    expect(searchRequests() - searchesBefore).toBe(1);
    expect(pageRequests() - pagesBefore).toBe(1);
    const second = await runBuiltCli(args, env);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).answer).toBe(JSON.parse(first.stdout).answer);
    expect(JSON.parse(second.stdout).references[0].quote).toContain('Green Book won Best Picture');
    expect(searchRequests() - searchesBefore).toBe(1);
    expect(pageRequests() - pagesBefore).toBe(1);
    llm.assertConsumed();
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, type FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeDuckDuckGo } from '../helpers/fake-duckduckgo-server.js';
import { startFakeSearchApi } from '../helpers/fake-search-api.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

let dir: string;
const servers: FakeHttpServer[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-search-e2e-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function track(server: Promise<FakeHttpServer>): Promise<FakeHttpServer> {
  const started = await server;
  servers.push(started);
  return started;
}

function configFile(name: string, search: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ search: { timeoutSeconds: 2, ...search } }));
  return file;
}

const tideHits = [
  {
    url: 'https://tides.example/brest',
    title: 'Brest tides',
    content: 'High tide at 12:04.',
    publishedDate: '2025-05-01',
  },
  { url: 'https://tides.example/cherbourg', title: 'Cherbourg tides', content: 'High tide at 13:10.' },
];

describe('deepsearch search (built CLI)', () => {
  it('prints numbered hits with URL, snippet and date', async () => {
    const searxng = await track(startFakeSearxng({ results: { 'tides brest': tideHits } }));
    const run = await runBuiltCli(['search', 'tides', 'brest'], { DEEPSEARCH_SEARXNG_URL: searxng.url });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '1. Brest tides\n   https://tides.example/brest\n   High tide at 12:04.\n   2025-05-01',
    );
    expect(run.stdout).toContain('2. Cherbourg tides');
  });

  it('prints one JSON document with --json and passes count, time range, site and language on', async () => {
    const searxng = await track(startFakeSearxng({ results: () => tideHits }));
    const run = await runBuiltCli(
      [
        'search',
        'tides',
        '--json',
        '--count',
        '1',
        '--time-range',
        'week',
        '--site',
        'tides.example',
        '--lang',
        'fr',
      ],
      { DEEPSEARCH_SEARXNG_URL: searxng.url },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      query: 'tides',
      provider: 'searxng',
      hits: [
        {
          url: 'https://tides.example/brest',
          title: 'Brest tides',
          snippet: 'High tide at 12:04.',
          publishedAt: '2025-05-01T00:00:00.000Z',
        },
      ],
    });
    expect(searxng.requests[0]?.query).toMatchObject({
      q: 'site:tides.example tides',
      time_range: 'week',
      language: 'fr',
    });
  });

  it('falls back to DuckDuckGo when SearXNG fails, and says so on stderr', async () => {
    const searxng = await track(startFakeSearxng({ results: {}, status: 503 }));
    const duckduckgo = await track(
      startFakeDuckDuckGo({ results: () => [{ url: 'https://ddg.example/tides', title: 'Tides from DDG' }] }),
    );
    const config = configFile('chain', { baseURLs: { duckduckgo: duckduckgo.url } });
    const run = await runBuiltCli(
      ['search', 'tides', '--json', '--config', config, '--search-provider', 'searxng,duckduckgo'],
      {
        DEEPSEARCH_SEARXNG_URL: searxng.url,
      },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hits.map((hit: { url: string }) => hit.url)).toEqual([
      'https://ddg.example/tides',
    ]);
    expect(run.stderr).toMatch(/! search "tides": searxng passed over \(.*HTTP 503.*\); trying duckduckgo/);
  });

  it('reports a rejected Brave key naming BRAVE_API_KEY with exit code 3, not "no results"', async () => {
    const brave = await track(
      startFakeSearchApi({
        method: 'GET',
        path: '/res/v1/web/search',
        authorized: (request) => request.headers['x-subscription-token'] === 'right-key',
        respond: () => ({ web: { results: [] } }),
      }),
    );
    const config = configFile('brave', { provider: 'brave', baseURLs: { brave: brave.url } });
    const run = await runBuiltCli(['search', 'tides', '--config', config], { BRAVE_API_KEY: 'wrong-key' });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/brave .*HTTP 401: check BRAVE_API_KEY/);
    expect(run.stderr).not.toContain('wrong-key');
    expect(run.stdout).toBe('');
  });

  it('a SearXNG that is down: the error names the setting to check', async () => {
    const down = await closedPortUrl();
    const run = await runBuiltCli(['search', 'tides'], {
      DEEPSEARCH_SEARXNG_URL: down,
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/cannot reach searxng .*connection refused/);
    expect(run.stderr).toContain('(is it running? check DEEPSEARCH_SEARXNG_URL or --searxng-url)');
  });

  it("--kb: the knowledge base's hits join the web's, as the agent's searches see them", async () => {
    const note = join(dir, 'rotation.md');
    writeFileSync(
      note,
      '# Key rotation\n\nSigning keys are rotated every ninety days by the security team.\n',
    );
    const base = join(dir, 'search-kb.sqlite');
    expect((await runBuiltCli(['kb', 'add', note, '--kb', base, '--quiet'])).code).toBe(0);
    const searxng = await track(
      startFakeSearxng({
        results: () => [{ url: 'https://keys.example/rotation', title: 'Rotation on the web', content: 'x' }],
      }),
    );
    const env = { DEEPSEARCH_SEARXNG_URL: searxng.url };
    const run = await runBuiltCli(['search', 'signing', 'keys', 'rotated', '--kb', base, '--json'], env);
    expect(run.code, run.stderr).toBe(0);
    const urls: string[] = JSON.parse(run.stdout).hits.map((hit: { url: string }) => hit.url);
    expect(urls).toContain('https://keys.example/rotation');
    expect(urls.some((url) => url.startsWith('kb:'))).toBe(true);
    const webOnly = await runBuiltCli(['search', 'signing', 'keys', 'rotated', '--json'], env);
    expect(JSON.parse(webOnly.stdout).hits.some((hit: { url: string }) => hit.url.startsWith('kb:'))).toBe(
      false,
    );
  });

  it('asks for a missing key with exit code 2', async () => {
    const run = await runBuiltCli(['search', 'tides', '--search-provider', 'exa']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/set EXA_API_KEY/);
  });

  it('refuses a missing query and an unknown time range', async () => {
    expect((await runBuiltCli(['search'])).code).toBe(2);
    const bad = await runBuiltCli(['search', 'q', '--time-range', 'decade']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/decade/);
  });

  it('refuses a language or region that is no such code, before searching', async () => {
    const searxng = await track(startFakeSearxng({ results: () => tideHits }));
    const env = { DEEPSEARCH_SEARXNG_URL: searxng.url };
    const lang = await runBuiltCli(['search', 'q', '--lang', '123'], env);
    expect(lang.code).toBe(2);
    expect(lang.stderr).toBe(
      'deepsearch: error: --lang must be a language tag such as en or fr-FR (got "123")\n',
    );
    const region = await runBuiltCli(['search', 'q', '--region', 'Germany'], env);
    expect(region.code).toBe(2);
    expect(region.stderr).toMatch(
      /--region must be a two-letter country code such as us or de \(got "Germany"\)/,
    );
    expect(searxng.requests).toHaveLength(0);
  });
});

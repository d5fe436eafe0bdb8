import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, startFakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeOpenAi } from '../../src/testing/fake-openai-server.js';
import { startFakeDuckDuckGo } from '../helpers/fake-duckduckgo-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

let dir: string;
const servers: Array<{ close(): Promise<void> }> = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-first-run-e2e-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function track<T extends { close(): Promise<void> }>(server: Promise<T>): Promise<T> {
  const started = await server;
  servers.push(started);
  return started;
}

function writeJson(name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const oneLine = (stderr: string) => stderr.trim().split('\n');

describe('a first run with nothing set up (built CLI)', () => {
  it('searches with DuckDuckGo, saying so in one line, when no SearXNG URL is set', async () => {
    const duckduckgo = await track(
      startFakeDuckDuckGo({
        results: () => [{ url: 'https://tides.example/brest', title: 'Brest tides', snippet: 'High tide.' }],
      }),
    );
    // The endpoint override points DuckDuckGo at the fake; the provider itself is left unset.
    const config = writeJson('ddg.json', { search: { baseURLs: { duckduckgo: duckduckgo.url } } });
    const run = await runBuiltCli(['search', 'tides', '--config', config]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1. Brest tides');
    expect(oneLine(run.stderr)).toEqual([
      'deepsearch: note: no SearXNG instance set, searching with DuckDuckGo (set DEEPSEARCH_SEARXNG_URL to use yours)',
    ]);
    expect(duckduckgo.requests).toHaveLength(1);
  });

  it('fails at start, before any LLM call, when SearXNG was chosen without an instance', async () => {
    const llm = await track(startFakeOpenAi({ respond: () => ({ content: '{}' }) }));
    const run = await runBuiltCli(['ask', 'q', '--search-provider', 'searxng'], {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'm',
    });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      'deepsearch: error: no SearXNG instance configured: set DEEPSEARCH_SEARXNG_URL (or --searxng-url) to the ' +
        'base URL of an instance with the JSON format enabled, e.g. http://localhost:8080, or search without ' +
        'one: --search-provider duckduckgo',
    ]);
    expect(llm.requests).toHaveLength(0);
  });

  it('fails at start, before any LLM call, when a keyed engine was chosen without its key', async () => {
    const llm = await track(startFakeOpenAi({ respond: () => ({ content: '{}' }) }));
    const run = await runBuiltCli(['ask', 'q', '--search-provider', 'brave'], {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'm',
    });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toEqual([
      'deepsearch: error: the brave search provider needs an API key: set BRAVE_API_KEY',
    ]);
    expect(llm.requests).toHaveLength(0);
  });

  it('names the config file key when the file chose SearXNG, and serve checks it at start too', async () => {
    const config = writeJson('searxng-only.json', {
      llm: { baseURL: 'http://127.0.0.1:9/v1', model: 'm' },
      search: { provider: 'searxng' },
    });
    const run = await runBuiltCli(['serve', '--port', '0', '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^deepsearch: error: no SearXNG instance configured: set "search.searxngUrl" in searxng-only\.json to/,
    );
  });

  it('uses a local LLM server it finds, naming the model, when no LLM is configured', async () => {
    const llm = await track(
      startFakeOpenAi({
        models: ['nomic-embed-text', 'qwen-local'],
        respond: () => ({ status: 500 }),
      }),
    );
    const searxng = await track(startFakeSearxng({ results: () => [] }));
    const ollamaDown = await closedPortUrl();
    const run = await runBuiltCli(['ask', 'q', '--llm-max-retries', '0'], {
      DEEPSEARCH_LOCAL_LLM_URLS: `ollama=${ollamaDown},openai=${llm.url}`,
      DEEPSEARCH_SEARXNG_URL: searxng.url,
    });
    expect(run.stderr).toContain(
      `deepsearch: note: no LLM configured, using an OpenAI-compatible server at ${llm.url} with model qwen-local`,
    );
    const chat = llm.requests.find((request) => request.path === '/v1/chat/completions');
    expect(chat?.json).toMatchObject({ model: 'qwen-local' });
    // stderr is a pipe here, not a terminal: no spinner redrawing a line.
    expect(run.stderr).not.toMatch(/\r|\x1b\[K/);
  });

  it('reads an Ollama server model list from /api/tags', async () => {
    const ollama = await track(
      startFakeHttpServer((request, response) => {
        if (request.path !== '/api/tags') {
          response.writeHead(404).end();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ models: [{ name: 'llama3.2:3b', size: 1 }] }));
      }),
    );
    const run = await runBuiltCli(['ask', 'q', '--search-provider', 'searxng'], {
      DEEPSEARCH_LOCAL_LLM_URLS: `ollama=${ollama.url}`,
    });
    // Discovery comes first; the missing SearXNG instance then stops the run before any LLM call.
    expect(run.stderr).toContain(`using Ollama at ${ollama.url} with model llama3.2:3b`);
    expect(run.code).toBe(2);
    expect(ollama.requests.map((request) => request.path)).toEqual(['/api/tags']);
  });

  it('with no LLM and no local server, says in one line what to set and points at init', async () => {
    const run = await runBuiltCli(['ask', 'q'], {
      DEEPSEARCH_LOCAL_LLM_URLS: `ollama=${await closedPortUrl()}`,
    });
    expect(run.code).toBe(2);
    expect(oneLine(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/no LLM configured: set DEEPSEARCH_LLM_BASE_URL .* or run deepsearch init/);
  });

  it('prints the version from package.json', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const run = await runBuiltCli(['--version']);
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('the cache without its native module (built CLI)', () => {
  it('warns in one line and searches without the cache', async () => {
    // Fails like better-sqlite3 without its compiled binding: a long list of paths tried.
    const broken = join(dir, 'broken-sqlite.cjs');
    writeFileSync(
      broken,
      `throw new Error(${JSON.stringify(
        `Could not locate the bindings file. Tried:\n${Array.from({ length: 13 }, (_, index) => ` → /x/build/${index}/better_sqlite3.node`).join('\n')}`,
      )});`,
    );
    const searxng = await track(
      startFakeSearxng({ results: () => [{ url: 'https://a.example/', title: 'A', content: 'a' }] }),
    );
    const run = await runBuiltCli(['search', 'q'], {
      DEEPSEARCH_NO_CACHE: '',
      DEEPSEARCH_CACHE_DIR: join(dir, 'cache'),
      DEEPSEARCH_SQLITE_MODULE: broken,
      DEEPSEARCH_SEARXNG_URL: searxng.url,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1. A');
    expect(oneLine(run.stderr)).toEqual([
      'deepsearch: warning: the cache is off: its SQLite module (better-sqlite3) cannot load (Could not locate ' +
        'the bindings file. Tried:); rebuild it with npm rebuild better-sqlite3 (needs python3, make and a C++ ' +
        'compiler), or pass --no-cache',
    ]);
  });
});

describe('deepsearch init (built CLI)', () => {
  it('writes a commented config file from flags that deepsearch then loads, and never overwrites silently', async () => {
    const file = join(dir, 'init', 'deepsearch.config.json');
    rmSync(join(dir, 'init'), { recursive: true, force: true });
    mkdirSync(join(dir, 'init'));
    const args = ['init', '--yes', '--config', file, '--llm-base-url', 'http://127.0.0.1:9/v1'];
    const run = await runBuiltCli([
      ...args,
      '--llm-model',
      'qwen2.5:7b',
      '--searxng-url',
      'http://127.0.0.1:8888',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`wrote ${file}`);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written).toMatchObject({
      llm: { provider: 'openai-compatible', baseURL: 'http://127.0.0.1:9/v1', model: 'qwen2.5:7b' },
      search: { provider: 'auto', searxngUrl: 'http://127.0.0.1:8888' },
    });
    expect(written.$comment).toContain('deepsearch init');
    expect(written.llm.$comment).toContain('openai-compatible');
    // The file is read back by the loader, comments and all: the LLM it names is what ask calls.
    const ask = await runBuiltCli(['ask', 'q', '--config', file, '--llm-max-retries', '0']);
    expect(ask.stderr).toContain('cannot reach the LLM server at http://127.0.0.1:9/v1');
    const again = await runBuiltCli([...args]);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`deepsearch: error: ${file} exists: pass --force to overwrite it\n`);
    expect((await runBuiltCli([...args, '--force'])).code).toBe(0);
  });

  it('refuses values the config would reject, writing nothing', async () => {
    const file = join(dir, 'bad-init.json');
    const run = await runBuiltCli(['init', '--yes', '--config', file, '--llm-base-url', 'not a url']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^deepsearch: error: not written: invalid configuration: llm\.baseURL/);
    expect(existsSync(file)).toBe(false);
    // A --config in a folder that does not exist: one line, exit 2, not an "unexpected failure".
    const nowhere = join(dir, 'no-such-folder', 'deepsearch.config.json');
    const missingFolder = await runBuiltCli(['init', '--yes', '--config', nowhere]);
    expect(missingFolder.code).toBe(2);
    expect(missingFolder.stderr).toBe(
      `deepsearch: error: cannot write --config ${nowhere}: no folder ${join(dir, 'no-such-folder')}\n`,
    );
  });
});

describe('deepsearch doctor (built CLI)', () => {
  it('passes every check against working fakes, exit 0', async () => {
    const llm = await track(
      startFakeOpenAi({ models: ['fake-model'], respond: () => ({ content: '{"ok":true}' }) }),
    );
    const searxng = await track(
      startFakeSearxng({ results: () => [{ url: 'https://a.example/', title: 'A', content: 'a' }] }),
    );
    const web = await track(
      startFakeWeb({ pages: { '/page': { html: '<html><body><p>Hello from the page.</p></body></html>' } } }),
    );
    const run = await runBuiltCli(['doctor', '--page', `${web.url}/page`, '--allow-private-network'], {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_SEARXNG_URL: searxng.url,
      DEEPSEARCH_NO_CACHE: '',
      DEEPSEARCH_CACHE_DIR: join(dir, 'doctor-cache'),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.map((line) => line.slice(0, 14))).toEqual([
      'ok    proxy   ',
      'ok    llm     ',
      'ok    context ',
      'ok    search  ',
      'ok    browser ',
      'ok    reader  ',
      'ok    cache   ',
    ]);
    expect(lines[0]).toContain('none, connections are direct');
    expect(lines[1]).toContain('model listed, JSON schema supported');
    expect(lines[2]).toContain('structured output: JSON schema');
    expect(lines[3]).toContain('searxng: 1 hit for "wikipedia"');
    // The default reader (auto) uses Chromium for app shells when there is one.
    expect(lines[4]).toMatch(
      /browser {3}(Chromium \d+[\d.]* at \/\S+, starts headless; reads the pages scripts write|no Chromium: app shells are read without their scripts)/,
    );
    const chat = llm.requests.find((request) => request.path === '/v1/chat/completions');
    expect(chat?.json).toMatchObject({ model: 'fake-model', response_format: { type: 'json_schema' } });
  });

  it('refuses a --page that is no http(s) URL as a typo, before any check', async () => {
    const llm = await track(startFakeOpenAi({ models: ['fake-model'] }));
    const run = await runBuiltCli(['doctor', '--page', 'htps//example.com'], {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'fake-model',
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'deepsearch: error: --page must be an http or https URL such as https://example.com/ (got "htps//example.com")\n',
    );
    expect(run.stdout).toBe('');
    expect(llm.requests).toHaveLength(0);
  });

  it("keeps the queue servers' rows in the column of the others, postgres included", async () => {
    const down = new URL(await closedPortUrl());
    const run = await runBuiltCli(['doctor', '--page', `${await closedPortUrl()}/page`], {
      DEEPSEARCH_LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      DEEPSEARCH_LLM_MODEL: 'fake-model',
      DEEPSEARCH_LLM_MAX_RETRIES: '0',
      DEEPSEARCH_REDIS_URL: `redis://127.0.0.1:${down.port}`,
      DEEPSEARCH_DATABASE_URL: `postgres://deepsearch:secret@127.0.0.1:${down.port}/deepsearch`,
    });
    const lines = run.stdout.split('\n');
    const column = (name: string) => {
      const line = lines.find((text) => new RegExp(`^(ok  |FAIL)  ${name} `).test(text));
      expect(line, name).toBeDefined();
      return line!.search(new RegExp(`(?<=${name}\\s+)\\S`));
    };
    expect(column('postgres')).toBe(column('llm'));
    expect(column('redis')).toBe(column('llm'));
    const fix = lines.find((text) => text.includes('fix: start Postgres'));
    expect(fix?.indexOf('fix:')).toBe(column('llm'));
  });

  it('prints a fix under each failure and exits non-zero', async () => {
    const llm = await track(startFakeOpenAi({ models: ['other-model'] }));
    const run = await runBuiltCli(
      ['doctor', '--page', `${await closedPortUrl()}/page`, '--search-provider', 'searxng'],
      {
        DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
        DEEPSEARCH_LLM_MODEL: 'fake-model',
        DEEPSEARCH_NO_CACHE: '',
        DEEPSEARCH_CACHE_DIR: join(dir, 'doctor-cache'),
        DEEPSEARCH_SQLITE_MODULE: join(dir, 'no-such-module.cjs'),
      },
    );
    expect(run.code).toBe(2);
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('FAIL'))).toHaveLength(4);
    expect(lines.filter((line) => line.trimStart().startsWith('fix: '))).toHaveLength(4);
    expect(run.stdout).toContain('the server does not list this model');
    expect(run.stdout).toContain('one it serves: other-model');
    expect(run.stdout).toContain('no SearXNG instance configured');
    expect(run.stdout).toContain('npm rebuild better-sqlite3');
    expect(run.stderr).toBe('deepsearch: error: 4 of 6 checks failed: see the fixes above\n');
    expect(llm.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(0);
  });

  it('names a placeholder key and the model as they are, and when DuckDuckGo fails suggests another engine', async () => {
    const llm = await track(
      startFakeOpenAi({
        apiKey: 'ollama',
        models: ['ollama-test'],
        respond: () => ({ content: '{"ok":true}' }),
      }),
    );
    const ddg = await track(
      startFakeHttpServer((_request, response) => {
        response.writeHead(403).end();
      }),
    );
    const config = writeJson('ddg-blocked.json', { search: { baseURLs: { duckduckgo: ddg.url } } });
    const run = await runBuiltCli(['doctor', '--config', config, '--page', `${await closedPortUrl()}/page`], {
      DEEPSEARCH_LLM_BASE_URL: `${llm.url}/v1`,
      DEEPSEARCH_LLM_MODEL: 'ollama-test',
      DEEPSEARCH_LLM_API_KEY: 'ollama',
      DEEPSEARCH_SEARCH_PROVIDER: 'duckduckgo',
      DEEPSEARCH_NO_CACHE: '1',
    });
    expect(run.code).toBe(2);
    const lines = run.stdout.trim().split('\n');
    expect(lines.find((line) => line.startsWith('ok    llm'))).toMatch(
      /^ok {4}llm {7}openai-compatible ollama-test at /,
    );
    expect(run.stdout).not.toContain('[redacted]');
    const search = lines.findIndex((line) => line.startsWith('FAIL  search'));
    expect(lines[search + 1]).toContain('fix: DuckDuckGo refuses or blocks requests from some networks');
    expect(lines[search + 1]).not.toContain('--search-provider duckduckgo');
  });
});

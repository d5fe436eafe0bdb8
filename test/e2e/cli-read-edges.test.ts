import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHttpServer } from '../../src/testing/fake-http-server.js';
import { startFakeSearxng } from '../helpers/fake-searxng-server.js';
import { startFakeWeb } from '../helpers/fake-web-server.js';
import { runBuiltCli } from '../helpers/run-built-cli.js';

let dir: string;
let web: FakeHttpServer;
let searxng: FakeHttpServer;
const good =
  '<html><head><title>Good</title></head><body><article><h1>Good</h1><p>The good page holds enough text to be read as its main content.</p></article></body></html>';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deepsearch-read-edges-'));
  writeFileSync(join(dir, 'good.html'), good);
  writeFileSync(join(dir, 'fragment.html'), '<p>hello <b>there</b></p>');
  web = await startFakeWeb({
    pages: {
      '/intranet': {
        html: good.replaceAll('Good', 'Intranet').replace('The good page', 'The intranet page'),
      },
    },
  });
  searxng = await startFakeSearxng({
    results: () => [
      { url: `${web.url}/intranet`, title: 'Intranet', content: 'on a private address' },
      { url: 'https://public.example/a', title: 'Public', content: 'on the web' },
    ],
  });
});

afterAll(async () => {
  await web.close();
  await searxng.close();
  rmSync(dir, { recursive: true, force: true });
});

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at |Node\.js v|\[cause\]/);

describe('deepsearch read, its edges (built CLI)', () => {
  it('prints every input that worked, one line per failure, and exits non-zero without a stack', async () => {
    const goodPath = join(dir, 'good.html');
    for (const args of [
      [goodPath, join(dir, 'missing.html')],
      [join(dir, 'missing.html'), goodPath],
    ]) {
      const run = await runBuiltCli(['read', ...args, '--format', 'text']);
      expect(run.code).toBe(2);
      expect(run.stdout).toContain('The good page holds enough text');
      expect(run.stdout.startsWith('Good\n')).toBe(true);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toEqual([
        `deepsearch: ${join(dir, 'missing.html')}: cannot read ${join(dir, 'missing.html')}: not a URL (http/https) nor a readable file`,
      ]);
      noStack(run.stderr);
    }
  });

  it('with --format json, one line per input and the error only there', async () => {
    const run = await runBuiltCli([
      'read',
      join(dir, 'missing.html'),
      join(dir, 'good.html'),
      '--format',
      'json',
    ]);
    expect(run.code).toBe(2);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ error: { code: 'invalid_input' } });
    expect(lines[1]).toMatchObject({ title: 'Good' });
    expect(run.stderr).toBe('');
  });

  it('a single missing input is one error line', async () => {
    const run = await runBuiltCli(['read', join(dir, 'missing.html')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    noStack(run.stderr);
  });

  it('reads an HTML fragment, by file or on stdin, as its text', async () => {
    const fromFile = await runBuiltCli(['read', join(dir, 'fragment.html'), '--format', 'text']);
    expect(fromFile).toMatchObject({ code: 0, stdout: 'hello there\n' });
    const fromStdin = await runBuiltCli(
      ['read', '-', '--format', 'text'],
      {},
      { stdin: '<p>hello <b>there</b></p>' },
    );
    expect(fromStdin).toMatchObject({ code: 0, stdout: 'hello there\n' });
    const markdown = await runBuiltCli(['read', '-'], {}, { stdin: '<p>hello <b>there</b></p>' });
    expect(markdown.stdout).toBe('hello **there**\n');
  });

  it('never serves a private page from the cache to a run without --allow-private-network', async () => {
    const env = { DEEPSEARCH_NO_CACHE: '0', DEEPSEARCH_CACHE_DIR: join(dir, 'cache') };
    const url = `${web.url}/intranet`;
    const allowed = await runBuiltCli(['read', url, '--format', 'text', '--allow-private-network'], env);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('The intranet page holds enough text');
    const fetches = web.requests.filter((request) => request.path === '/intranet').length;
    // The page is in the cache now; the run without the flag must still be refused by the guard.
    const refused = await runBuiltCli(['read', url, '--format', 'text'], env);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('loopback');
    expect(web.requests.filter((request) => request.path === '/intranet')).toHaveLength(fetches);
    // And the cache still serves the run that allows it.
    const again = await runBuiltCli(['read', url, '--format', 'text', '--allow-private-network'], env);
    expect(again.stdout).toBe(allowed.stdout);
    expect(web.requests.filter((request) => request.path === '/intranet')).toHaveLength(fetches);
  });

  it('says when search hits were dropped as private addresses, and never serves them from the cache', async () => {
    const env = {
      DEEPSEARCH_SEARXNG_URL: searxng.url,
      DEEPSEARCH_NO_CACHE: '0',
      DEEPSEARCH_CACHE_DIR: join(dir, 'search-cache'),
    };
    const open = await runBuiltCli(['search', 'intranet', '--json', '--allow-private-network'], env);
    expect(JSON.parse(open.stdout).hits.map((hit: { title: string }) => hit.title)).toEqual([
      'Intranet',
      'Public',
    ]);
    expect(open.stderr).toBe('');
    const guarded = await runBuiltCli(['search', 'intranet', '--json', '--debug'], env);
    expect(guarded.code).toBe(0);
    expect(JSON.parse(guarded.stdout).hits.map((hit: { title: string }) => hit.title)).toEqual(['Public']);
    expect(guarded.stderr).toContain(
      `searxng: dropped 1 hit pointing at private or loopback addresses (${web.url}/intranet); --allow-private-network keeps them`,
    );
  });
});

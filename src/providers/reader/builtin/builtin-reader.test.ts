import { describe, expect, it } from 'vitest';
import { useFakeWeb } from '../../../../test/helpers/use-fake-web.js';
import { AbortedError, BlockedUrlError, ProviderError } from '../../../core/errors/index.js';
import { createBuiltinReader } from './builtin-reader.js';

const serve = useFakeWeb();

const articleHtml = `<!doctype html><html><head><title>Green Book wins | Film News</title>
<meta property="article:published_time" content="2019-02-25T08:00:00Z"><meta name="author" content="Ann Critic">
</head><body>
<nav><a href="/">Home</a> <a href="/films">Films</a></nav>
<article><h1>Green Book wins</h1>
<p>The 91st Academy Awards honored the best films of 2018. Green Book won Best Picture. The film was directed by Peter Farrelly.</p>
<p>Other nominees included <a href="/roma">Roma</a> and <a href="https://example.org/favourite?ref=x">The Favourite</a>, both much praised by critics that season.</p>
<table><tr><th>Award</th><th>Film</th></tr><tr><td>Best Picture</td><td>Green Book</td></tr></table>
</article>
<footer><a href="/about">About us</a></footer>
</body></html>`;

const reader = (overrides: Parameters<typeof createBuiltinReader>[0] = {}) =>
  createBuiltinReader({ allowPrivateNetwork: true, maxRetries: 0, ...overrides });

describe('createBuiltinReader', () => {
  it('extracts the main content as markdown and text, with title, author, date and absolute links', async () => {
    const site = await serve({ '/news/green-book': { html: articleHtml } });
    const page = await reader().read(`${site.url}/news/green-book`);
    expect(page.title).toContain('Green Book wins');
    expect(page.byline).toBe('Ann Critic');
    expect(page.publishedAt).toBe('2019-02-25T08:00:00.000Z');
    expect(page.text).toContain('Green Book won Best Picture. The film was directed by Peter Farrelly.');
    expect(page.text).not.toContain('About us');
    expect(page.markdown).toContain('| Award | Film |');
    expect(page.links).toContainEqual({ url: `${site.url}/roma`, text: 'Roma' });
    expect(page.links).toContainEqual({ url: 'https://example.org/favourite?ref=x', text: 'The Favourite' });
    expect(page.links).toContainEqual({ url: `${site.url}/films`, text: 'Films' });
    expect(page.contentType).toBe('text/html');
    // The request looks like a browser's, not a bare script.
    expect(site.requests[0]?.headers['user-agent']).toMatch(/Mozilla\/5\.0.*deepsearch/);
  });

  it('follows redirects and reports the final URL', async () => {
    const site = await serve({ '/old': { redirectTo: '/new', status: 301 }, '/new': { html: articleHtml } });
    const page = await reader().read(`${site.url}/old`);
    expect(page.requestedUrl).toBe(`${site.url}/old`);
    expect(page.url).toBe(`${site.url}/new`);
    // What a source snapshot keeps: the final page's status and when it was fetched.
    expect(page.status).toBe(200);
    expect(Date.now() - Date.parse(page.fetchedAt!)).toBeLessThan(60_000);
  });

  it('stops after the configured number of redirects', async () => {
    const site = await serve({ '/a': { redirectTo: '/b' }, '/b': { redirectTo: '/a' } });
    const error = await reader({ maxRedirects: 3 })
      .read(`${site.url}/a`)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toContain('redirected more than 3 times');
    expect(site.requests).toHaveLength(4);
  });

  it('refuses loopback addresses unless private networks are allowed, before connecting', async () => {
    const site = await serve({ '/': { html: articleHtml } });
    const error = await reader({ allowPrivateNetwork: false })
      .read(`${site.url}/`)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect((error as Error).message).toContain('loopback');
    expect(site.requests).toHaveLength(0);
  });

  it('refuses a redirect from a public name to a private address', async () => {
    const site = await serve({ '/': { html: articleHtml } });
    const publicSite: typeof fetch = async (input) => {
      const url = String(input);
      if (url.startsWith('https://public.example/')) {
        return new Response(null, { status: 302, headers: { location: `${site.url}/` } });
      }
      return fetch(input);
    };
    const guarded = createBuiltinReader({
      fetch: publicSite,
      maxRetries: 0,
      lookup: async () => ['93.184.216.34'],
    });
    const error = await guarded.read('https://public.example/start').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect(site.requests).toHaveLength(0);
  });

  it('decodes a page in the charset its meta tag declares', async () => {
    const html =
      '<html><head><meta charset="windows-1251"><title>Т</title></head><body><article><p>Привет, мир! Это страница в кодировке windows-1251, и её текст должен читаться правильно.</p></article></body></html>';
    const bytes = encodeWindows1251(html);
    const site = await serve({ '/ru': { body: bytes, contentType: 'text/html' } });
    const page = await reader().read(`${site.url}/ru`);
    expect(page.text).toContain('Привет, мир!');
  });

  it('passes plain text and JSON through, and keeps Last-Modified as the modified date', async () => {
    const site = await serve({
      '/notes.txt': {
        body: 'Release notes\nVersion 2 adds streaming.',
        contentType: 'text/plain; charset=utf-8',
        headers: { 'last-modified': 'Wed, 21 Oct 2026 07:28:00 GMT' },
      },
      '/data.json': { body: '{"name":"deepsearch","stars":5}', contentType: 'application/json' },
    });
    const text = await reader().read(`${site.url}/notes.txt`);
    expect(text).toMatchObject({
      title: 'Release notes',
      text: 'Release notes\nVersion 2 adds streaming.',
      modifiedAt: '2026-10-21T07:28:00.000Z',
    });
    const json = await reader().read(`${site.url}/data.json`);
    expect(json.text).toContain('"stars": 5');
  });

  it('cuts a body at the size cap', async () => {
    const big = `<html><body><article>${'<p>Long paragraph of filler text for the size cap.</p>'.repeat(5000)}</article></body></html>`;
    const site = await serve({ '/big': { html: big } });
    const page = await reader({ maxBytes: 10_000 }).read(`${site.url}/big`);
    expect(page.text.length).toBeGreaterThan(1000);
    expect(page.text.length).toBeLessThan(10_000);
  });

  it('turns HTTP errors into provider errors with the status, without retrying a 404', async () => {
    const site = await serve({
      '/gone': { status: 404, html: '<p>gone</p>' },
      '/busy': { status: 503, html: 'busy' },
    });
    const missing = await reader({ maxRetries: 2 })
      .read(`${site.url}/gone`)
      .catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(ProviderError);
    expect(missing).toMatchObject({ statusCode: 404, isRetryable: false });
    expect(site.requests.filter((request) => request.path === '/gone')).toHaveLength(1);
    const busy = await createBuiltinReader({ allowPrivateNetwork: true, maxRetries: 1 })
      .read(`${site.url}/busy`)
      .catch((caught: unknown) => caught);
    expect(busy).toMatchObject({ statusCode: 503, isRetryable: true });
    expect(site.requests.filter((request) => request.path === '/busy')).toHaveLength(2);
  });

  it('refuses content types it cannot read', async () => {
    const site = await serve({ '/file.bin': { body: new Uint8Array([1, 2, 3]), contentType: 'image/png' } });
    const error = await reader()
      .read(`${site.url}/file.bin`)
      .catch((caught: unknown) => caught);
    expect((error as Error).message).toContain('image/png');
  });

  it('times out a server that hangs, and stops at once when the caller aborts', async () => {
    const site = await serve({
      '/slow': { hang: 'before-headers' },
      '/stall': { hang: 'mid-body', html: '<p>partial' },
    });
    const timedOut = await reader({ timeoutMs: 300 })
      .read(`${site.url}/slow`)
      .catch((caught: unknown) => caught);
    expect(timedOut).toMatchObject({ code: 'provider_timeout' });
    const stalled = await reader({ timeoutMs: 300 })
      .read(`${site.url}/stall`)
      .catch((caught: unknown) => caught);
    expect(stalled).toMatchObject({ code: 'provider_timeout' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const aborted = await reader()
      .read(`${site.url}/slow`, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(aborted).toBeInstanceOf(AbortedError);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

/** windows-1251 for the Cyrillic range only: enough for the test text. */
function encodeWindows1251(text: string): Uint8Array {
  return Uint8Array.from(
    [...text].map((char) => {
      const code = char.codePointAt(0)!;
      if (code < 0x80) return code;
      if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
      if (code === 0x451) return 0xb8;
      throw new Error(`cannot encode ${char}`);
    }),
  );
}

import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FakeWebPage } from '../../../../test/helpers/fake-web-server.js';
import { makePdf } from '../../../../test/helpers/make-pdf.js';
import { useFakeWeb } from '../../../../test/helpers/use-fake-web.js';
import { createBuiltinReader } from './builtin-reader.js';

const serve = useFakeWeb();

const reader = (overrides: Parameters<typeof createBuiltinReader>[0] = {}) =>
  createBuiltinReader({ allowPrivateNetwork: true, maxRetries: 0, ...overrides });

const article = (sentence: string) =>
  `<html><head><title>Compressed</title></head><body><article><h1>Compressed</h1><p>${sentence} This paragraph is long enough for the extractor to keep it as the article body.</p></article></body></html>`;

function html(
  bytes: Uint8Array | Buffer,
  contentType: string,
  headers: Record<string, string> = {},
): FakeWebPage {
  return { body: new Uint8Array(bytes), contentType, headers };
}

describe('createBuiltinReader: transfer encodings', () => {
  it('asks for gzip and brotli, and decodes either', async () => {
    const site = await serve({
      '/gzip': html(gzipSync(article('Gzip came through intact.')), 'text/html; charset=utf-8', {
        'content-encoding': 'gzip',
      }),
      '/br': html(brotliCompressSync(article('Brotli came through intact.')), 'text/html; charset=utf-8', {
        'content-encoding': 'br',
      }),
    });
    expect((await reader().read(`${site.url}/gzip`)).text).toContain('Gzip came through intact.');
    expect((await reader().read(`${site.url}/br`)).text).toContain('Brotli came through intact.');
    expect(site.requests[0]?.headers['accept-encoding']).toMatch(/gzip.*br|br.*gzip/);
  });

  it('applies the size cap to the decoded body, so a small compressed bomb is cut', async () => {
    const huge = `<html><body><article>${'<p>Repeated filler that compresses extremely well.</p>'.repeat(40_000)}</article></body></html>`;
    const site = await serve({ '/bomb': html(gzipSync(huge), 'text/html', { 'content-encoding': 'gzip' }) });
    const page = await reader({ maxBytes: 20_000 }).read(`${site.url}/bomb`);
    expect(page.text.length).toBeGreaterThan(1_000);
    expect(page.text.length).toBeLessThan(20_000);
  });
});

describe('createBuiltinReader: charsets', () => {
  const latin =
    '<html><head><title>Café</title></head><body><article><p>Ein schöner Sommertag: Straße, Müller und Ärger über das Café. Genug Text für den Extraktor, damit er den Absatz behält.</p></article></body></html>';

  it('takes the charset from the Content-Type header (ISO-8859-1)', async () => {
    const site = await serve({ '/de': html(Buffer.from(latin, 'latin1'), 'text/html; charset=ISO-8859-1') });
    expect((await reader().read(`${site.url}/de`)).text).toContain('Straße, Müller und Ärger');
  });

  it('lets the header win over a meta tag that disagrees', async () => {
    const withMeta = latin.replace('<head>', '<head><meta charset="utf-8">');
    const site = await serve({
      '/de': html(Buffer.from(withMeta, 'latin1'), 'text/html; charset=windows-1252'),
    });
    expect((await reader().read(`${site.url}/de`)).text).toContain('schöner Sommertag');
  });

  it('reads Shift_JIS and GBK pages from their meta tags', async () => {
    const page = (charset: string, text: number[]) =>
      Buffer.concat([
        Buffer.from(
          `<html><head><meta http-equiv="Content-Type" content="text/html; charset=${charset}"></head><body><article><p>`,
        ),
        Buffer.from(text),
        Buffer.from(
          ' - a page in a legacy East Asian encoding, long enough to be kept as content.</p></article></body></html>',
        ),
      ]);
    const site = await serve({
      // 日本語 in Shift_JIS; 你好 in GBK
      '/ja': html(page('Shift_JIS', [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]), 'text/html'),
      '/zh': html(page('gbk', [0xc4, 0xe3, 0xba, 0xc3]), 'text/html'),
    });
    expect((await reader().read(`${site.url}/ja`)).text).toContain('日本語');
    expect((await reader().read(`${site.url}/zh`)).text).toContain('你好');
  });
});

describe('createBuiltinReader: content types', () => {
  it('reads a PDF: text by page, title, author and creation date', async () => {
    const pdf = makePdf({
      pages: [
        ['Quarterly report', 'Revenue grew by 12 percent.'],
        ['Outlook', 'Margins should hold next year.'],
      ],
      title: 'Q3 Report',
      author: 'Finance Team',
      creationDate: 'D:20240315120000Z',
    });
    const site = await serve({ '/q3.pdf': { body: pdf, contentType: 'application/pdf' } });
    const page = await reader().read(`${site.url}/q3.pdf`);
    expect(page).toMatchObject({
      contentType: 'application/pdf',
      title: 'Q3 Report',
      byline: 'Finance Team',
      publishedAt: '2024-03-15T12:00:00.000Z',
    });
    expect(page.text).toMatch(
      /Revenue grew by 12 percent\.[\s\S]*\n\n[\s\S]*Margins should hold next year\./,
    );
  });

  it('recognises a PDF served as application/octet-stream by its signature', async () => {
    const site = await serve({
      '/download': {
        body: makePdf({ pages: [['Signed body text']] }),
        contentType: 'application/octet-stream',
      },
    });
    expect((await reader().read(`${site.url}/download`)).text).toContain('Signed body text');
  });

  it('fails clearly on a body that claims to be a PDF and is not', async () => {
    const site = await serve({ '/bad.pdf': { body: 'not a pdf at all', contentType: 'application/pdf' } });
    const error = await reader()
      .read(`${site.url}/bad.pdf`)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'page_unreadable', isRetryable: false });
  });

  it('passes markdown through as it is, with Last-Modified as the modified date', async () => {
    const markdown = '# Changelog\n\n- **2.0**: streaming\n- 1.9: fixes';
    const site = await serve({
      '/CHANGELOG.md': {
        body: markdown,
        contentType: 'text/markdown; charset=utf-8',
        headers: { 'last-modified': 'Tue, 03 Nov 2026 10:00:00 GMT' },
      },
    });
    const page = await reader().read(`${site.url}/CHANGELOG.md`);
    expect(page).toMatchObject({ title: 'Changelog', markdown, modifiedAt: '2026-11-03T10:00:00.000Z' });
  });

  it('uses Last-Modified for an HTML page that gives no date of its own', async () => {
    const site = await serve({
      '/a': {
        html: article('Dated by header.'),
        headers: { 'last-modified': 'Mon, 02 Nov 2026 09:00:00 GMT' },
      },
    });
    expect((await reader().read(`${site.url}/a`)).modifiedAt).toBe('2026-11-02T09:00:00.000Z');
  });
});

describe('createBuiltinReader: robots.txt', () => {
  const robots =
    'User-agent: *\nDisallow: /private\n\nUser-agent: deepsearch\nDisallow: /no-bots\nAllow: /no-bots/ok\n';

  it('is ignored unless asked for', async () => {
    const site = await serve({
      '/robots.txt': { body: robots, contentType: 'text/plain' },
      '/no-bots': { html: article('Open.') },
    });
    expect((await reader().read(`${site.url}/no-bots`)).text).toContain('Open.');
    expect(site.requests.map((request) => request.path)).toEqual(['/no-bots']);
  });

  it('when asked for, refuses what the deepsearch group disallows, once per site', async () => {
    const site = await serve({
      '/robots.txt': { body: robots, contentType: 'text/plain' },
      '/no-bots/ok': { html: article('Allowed by the longer rule.') },
      '/private': { html: article('Only the star group disallows this.') },
    });
    const polite = reader({ respectRobotsTxt: true });
    const refused = await polite.read(`${site.url}/no-bots/page`).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: 'page_disallowed_by_robots' });
    expect((await polite.read(`${site.url}/no-bots/ok`)).text).toContain('Allowed by the longer rule.');
    // The deepsearch group replaces the * group, so /private is not disallowed for us.
    expect((await polite.read(`${site.url}/private`)).text).toContain('Only the star group');
    expect(site.requests.filter((request) => request.path === '/robots.txt')).toHaveLength(1);
    expect(site.requests.map((request) => request.path)).not.toContain('/no-bots/page');
  });

  it('reads everything when the site has no robots.txt', async () => {
    const site = await serve({ '/x': { html: article('No robots file here.') } });
    expect((await reader({ respectRobotsTxt: true }).read(`${site.url}/x`)).text).toContain('No robots file');
  });
});

describe('createBuiltinReader: paywalls behind HTTP 200', () => {
  const page = (head: string, body: string) =>
    html(
      Buffer.from(
        `<html><head><title>Story</title>${head}</head><body><article><h1>Story</h1>${body}</article></body></html>`,
      ),
      'text/html; charset=utf-8',
    );
  const teaser =
    '<p>The council voted on Tuesday to close the old bridge to cars from next spring, officials said.</p>';

  it("flags the publisher's schema.org mark and a short teaser asking to subscribe", async () => {
    const site = await serve({
      '/marked': page(
        '<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","isAccessibleForFree":"False","hasPart":{"@type":"WebPageElement","isAccessibleForFree":"False","cssSelector":".paywall"}}</script>',
        `${teaser}<p>${'The full report follows for members. '.repeat(5)}</p>`,
      ),
      '/teaser': page('', `${teaser}<p>Subscribe to continue reading. Already a subscriber? Sign in.</p>`),
    });
    expect((await reader().read(`${site.url}/marked`)).paywalled).toBe(true);
    const walled = await reader().read(`${site.url}/teaser`);
    expect(walled.paywalled).toBe(true);
    expect(walled.text).toContain('close the old bridge');
  });

  it('leaves a free article alone, even one that ends with a newsletter prompt', async () => {
    const long = `<p>${'The bridge opened in 1905 and carried trams, carts and later cars across the river. '.repeat(40)}</p>`;
    const site = await serve({
      '/free': page(
        '<script type="application/ld+json">{"@type":"NewsArticle","isAccessibleForFree":true}</script>',
        `${teaser}${long}<p>Subscribe to continue reading our weekly newsletter.</p>`,
      ),
      '/plain': page(
        '',
        `${teaser}<p>Readers can subscribe to the newsletter for more local news every week.</p>`,
      ),
    });
    expect((await reader().read(`${site.url}/free`)).paywalled).toBeUndefined();
    expect((await reader().read(`${site.url}/plain`)).paywalled).toBeUndefined();
  });
});

describe('createBuiltinReader: bot checks', () => {
  const interstitial =
    '<html><head><title>Just a moment...</title></head><body><p>Checking your browser before accessing the site.</p><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script></body></html>';

  it('refuses a 403 challenge page as blocked, asking once even with retries on', async () => {
    const site = await serve({ '/story': { status: 403, html: interstitial } });
    const refused = await reader({ maxRetries: 2 })
      .read(`${site.url}/story`)
      .catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: 'page_blocked_by_bot_check', statusCode: 403 });
    expect(site.requests).toHaveLength(1);
  });

  it('refuses an interstitial served with 200, and a cf-mitigated 503 whatever its body', async () => {
    const site = await serve({
      '/interstitial': { html: interstitial },
      '/mitigated': { status: 503, html: '<p>Error</p>', headers: { 'cf-mitigated': 'challenge' } },
      '/plain-403': { status: 403, html: '<h1>Forbidden</h1>' },
    });
    await expect(reader().read(`${site.url}/interstitial`)).rejects.toMatchObject({
      code: 'page_blocked_by_bot_check',
      statusCode: 200,
    });
    await expect(reader().read(`${site.url}/mitigated`)).rejects.toMatchObject({
      code: 'page_blocked_by_bot_check',
      statusCode: 503,
    });
    await expect(reader().read(`${site.url}/plain-403`)).rejects.toMatchObject({
      code: 'page_http_error',
      statusCode: 403,
    });
  });
});

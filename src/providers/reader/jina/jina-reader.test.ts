import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, BlockedUrlError, ProviderError } from '../../../core/errors/index.js';
import { type FakeHttpServer, startFakeHttpServer } from '../../../testing/fake-http-server.js';
import { createJinaReader } from './jina-reader.js';

let server: FakeHttpServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Reply = (response: ServerResponse) => void;

const json =
  (status: number, body: unknown): Reply =>
  (response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

async function jina(...replies: Reply[]): Promise<FakeHttpServer> {
  let index = 0;
  server = await startFakeHttpServer((_request, response) => {
    const reply = replies[Math.min(index++, replies.length - 1)]!;
    reply(response);
  });
  return server;
}

const okBody = {
  code: 200,
  status: 20000,
  data: {
    title: 'Green Book wins',
    url: 'https://news.example/green-book',
    description: 'Oscars',
    content:
      '# Green Book wins\n\nGreen Book won **Best Picture**. See [the list](https://news.example/list).\n\n| Award | Film |\n| --- | --- |\n| Best Picture | Green Book |',
    publishedTime: 'Mon, 25 Feb 2019 08:00:00 GMT',
    links: [
      ['Roma', 'https://news.example/roma'],
      ['Home', '/'],
      ['mail', 'mailto:desk@news.example'],
    ],
    usage: { tokens: 120 },
  },
};

const reader = (overrides: Parameters<typeof createJinaReader>[0] = {}) =>
  createJinaReader({ baseURL: server!.url, maxRetries: 0, ...overrides });

describe('createJinaReader', () => {
  it('POSTs the URL as JSON with the documented headers and bearer key', async () => {
    const site = await jina(json(200, okBody));
    await reader({ apiKey: 'jina_test_key', timeoutMs: 20_000 }).read(
      'https://news.example/green-book?ref=x',
    );
    const request = site.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/');
    expect(JSON.parse(request.body)).toEqual({ url: 'https://news.example/green-book?ref=x' });
    expect(request.headers).toMatchObject({
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: 'Bearer jina_test_key',
      'x-with-links-summary': 'all',
      'x-retain-images': 'none',
      'x-timeout': '18',
    });
  });

  it('sends no authorization header without a key (Jina serves keyless requests at a lower rate)', async () => {
    const site = await jina(json(200, okBody));
    await reader().read('https://news.example/green-book');
    expect(site.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('maps the answer to a page: markdown, plain text, date and absolute web links', async () => {
    await jina(json(200, okBody));
    const page = await reader().read('https://news.example/green-book');
    expect(page).toMatchObject({
      requestedUrl: 'https://news.example/green-book',
      url: 'https://news.example/green-book',
      title: 'Green Book wins',
      publishedAt: '2019-02-25T08:00:00.000Z',
      contentType: 'text/markdown',
    });
    expect(page.markdown).toContain('| Best Picture | Green Book |');
    expect(page.text).toContain('Green Book won Best Picture. See the list.');
    expect(page.text).not.toContain('](');
    expect(page.links).toEqual([
      { url: 'https://news.example/roma', text: 'Roma' },
      { url: 'https://news.example/', text: 'Home' },
    ]);
  });

  it('accepts links given as an object and tolerates missing optional fields', async () => {
    await jina(json(200, { data: { content: 'Just text.', links: { Docs: 'https://docs.example/' } } }));
    const page = await reader().read('https://docs.example/start');
    expect(page).toMatchObject({
      url: 'https://docs.example/start',
      title: 'https://docs.example/start',
      text: 'Just text.',
    });
    expect(page.links).toEqual([{ url: 'https://docs.example/', text: 'Docs' }]);
  });

  it('names JINA_API_KEY when the key is refused', async () => {
    await jina(
      json(401, { code: 401, name: 'AuthenticationRequiredError', readableMessage: 'Invalid API key' }),
    );
    const error = await reader({ apiKey: 'bad' })
      .read('https://news.example/')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toContain('JINA_API_KEY');
    expect((error as Error).message).not.toContain('bad');
  });

  it('reports 429 as a retryable rate limit and retries it', async () => {
    const site = await jina(json(429, { message: 'slow down' }), json(200, okBody));
    const page = await createJinaReader({ baseURL: server!.url, maxRetries: 1 }).read(
      'https://news.example/',
    );
    expect(page.title).toBe('Green Book wins');
    expect(site.requests).toHaveLength(2);
    await server!.close();
    await jina(json(429, { message: 'slow down' }));
    const error = await reader()
      .read('https://news.example/')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider_rate_limited', statusCode: 429, isRetryable: true });
  });

  it('reports 500 as a retryable provider error with the reason', async () => {
    await jina(json(500, { readableMessage: 'x', message: 'upstream exploded' }));
    const error = await reader()
      .read('https://news.example/')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true, providerId: 'jina-reader' });
    expect((error as Error).message).toContain('upstream exploded');
  });

  it('times out a server that never answers', async () => {
    await jina(() => undefined);
    const error = await reader({ timeoutMs: 300 })
      .read('https://news.example/')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider_timeout' });
  });

  it.each([
    ['a body that is not JSON', '<html>oops</html>'],
    ['JSON without data.content', { code: 200, data: { title: 'x' } }],
  ])('rejects %s as a bad response', async (_name, body) => {
    await jina(json(200, body));
    const error = await reader()
      .read('https://news.example/')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider_bad_response' });
  });

  it('refuses a URL that is not http(s) without calling Jina', async () => {
    const site = await jina(json(200, okBody));
    const error = await reader()
      .read('file:///etc/passwd')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BlockedUrlError);
    expect(site.requests).toHaveLength(0);
  });
});

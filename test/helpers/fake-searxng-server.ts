import type { ServerResponse } from 'node:http';
import {
  type FakeHttpServer,
  type RecordedRequest,
  startFakeHttpServer,
} from '../../src/testing/fake-http-server.js';

/** One result as SearXNG's JSON format writes it; every field may be missing, as in real answers. */
export interface FakeSearxngResult {
  url?: string;
  title?: string;
  content?: string;
  publishedDate?: string | null;
  engine?: string;
}

export interface FakeSearxngOptions {
  /** Results per exact `q` value, or a function of it; an unknown query gets no results. */
  results:
    | Record<string, FakeSearxngResult[]>
    | ((query: string, request: RecordedRequest) => FakeSearxngResult[]);
  /** Answer every request with this status (and a SearXNG-like error page) instead of results. */
  status?: number;
}

/**
 * A SearXNG instance on 127.0.0.1 that speaks GET /search?format=json. Like a real instance whose
 * settings.yml does not enable the JSON format, it answers 403 to any other format.
 */
export function startFakeSearxng(options: FakeSearxngOptions): Promise<FakeHttpServer> {
  return startFakeHttpServer((request, response) => {
    if (request.path !== '/search') return sendText(response, 404, 'Not Found');
    if (options.status !== undefined && options.status !== 200) {
      return sendText(response, options.status, `<html><body><h1>Error ${options.status}</h1></body></html>`);
    }
    if (request.query.format !== 'json') return sendText(response, 403, '<h1>403 Forbidden</h1>');
    const query = request.query.q ?? '';
    const hits =
      typeof options.results === 'function'
        ? options.results(query, request)
        : (options.results[query] ?? []);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(searxngBody(query, hits)));
  });
}

function searxngBody(query: string, hits: FakeSearxngResult[]) {
  return {
    query,
    number_of_results: 0,
    results: hits.map((hit, index) => ({
      template: 'default.html',
      engine: hit.engine ?? 'fake',
      engines: [hit.engine ?? 'fake'],
      positions: [index + 1],
      score: 1 / (index + 1),
      category: 'general',
      parsed_url: hit.url ? urlParts(hit.url) : undefined,
      ...hit,
    })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  };
}

/** SearXNG sends Python's urlparse tuple; kept so the body looks like the real thing. */
function urlParts(url: string): string[] {
  try {
    const parsed = new URL(url);
    return [parsed.protocol.replace(':', ''), parsed.host, parsed.pathname, '', parsed.search.slice(1), ''];
  } catch {
    return [];
  }
}

function sendText(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  response.end(body);
}

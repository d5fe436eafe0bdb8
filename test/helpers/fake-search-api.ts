import type { ServerResponse } from 'node:http';
import {
  type FakeHttpServer,
  type RecordedRequest,
  startFakeHttpServer,
} from '../../src/testing/fake-http-server.js';

export interface FakeSearchApiOptions {
  method: 'GET' | 'POST';
  path: string;
  /** True when the request carries the right key, checked the way the service checks it. */
  authorized?: (request: RecordedRequest) => boolean;
  /** The body of a 200 answer; an object is sent as JSON. */
  respond: (request: RecordedRequest) => unknown;
  contentType?: string;
}

/**
 * A search API on 127.0.0.1: wrong method or path → 404, wrong key → 401 with a JSON error (as
 * the real services answer), otherwise what `respond` gives. Every request is recorded.
 */
export function startFakeSearchApi(options: FakeSearchApiOptions): Promise<FakeHttpServer> {
  return startFakeHttpServer((request, response) => {
    if (request.method !== options.method || request.path !== options.path) {
      return send(response, 404, 'application/json', JSON.stringify({ error: 'not found' }));
    }
    if (options.authorized && !options.authorized(request)) {
      return send(
        response,
        401,
        'application/json',
        JSON.stringify({ error: { message: 'invalid API key' } }),
      );
    }
    const answer = options.respond(request);
    const contentType = options.contentType ?? 'application/json';
    send(response, 200, contentType, typeof answer === 'string' ? answer : JSON.stringify(answer));
  });
}

function send(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, { 'content-type': contentType, 'retry-after': '0' });
  response.end(body);
}

/** The JSON body a POST carried, for checking what a provider sent. */
export function jsonBody(request: RecordedRequest): Record<string, unknown> {
  return JSON.parse(request.body) as Record<string, unknown>;
}

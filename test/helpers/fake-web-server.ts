import type { ServerResponse } from 'node:http';
import { type FakeHttpServer, startFakeHttpServer } from '../../src/testing/fake-http-server.js';

export interface FakeWebPage {
  /** Served as text/html; charset=utf-8 unless contentType says otherwise. */
  html?: string;
  /** Raw body, for other types or for bytes in another encoding. */
  body?: string | Uint8Array;
  contentType?: string;
  /** Default 200, or 302 with redirectTo. */
  status?: number;
  headers?: Record<string, string>;
  /** Location to redirect to (absolute, or a path on this server). */
  redirectTo?: string;
  /**
   * A server that hangs: 'before-headers' never answers; 'mid-body' sends the headers and the body
   * but never ends the response.
   */
  hang?: 'before-headers' | 'mid-body';
}

export interface FakeWebOptions {
  /** Keyed by path, optionally with its query string ('/search?q=x' is tried before '/search'). */
  pages: Record<string, FakeWebPage>;
}

/** A tiny web on 127.0.0.1: pages by path, redirects, any status, headers or bytes. Unknown paths are 404. */
export function startFakeWeb(options: FakeWebOptions): Promise<FakeHttpServer> {
  return startFakeHttpServer((request, response) => {
    const search = new URLSearchParams(request.query).toString();
    const page =
      (search ? options.pages[`${request.path}?${search}`] : undefined) ?? options.pages[request.path];
    if (!page) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<html><head><title>Not found</title></head><body><p>No such page.</p></body></html>');
      return;
    }
    servePage(page, response);
  });
}

function servePage(page: FakeWebPage, response: ServerResponse): void {
  if (page.hang === 'before-headers') return;
  const headers: Record<string, string> = { ...page.headers };
  if (page.redirectTo !== undefined) headers.location = page.redirectTo;
  const body = page.html ?? page.body ?? '';
  const contentType = page.contentType ?? (page.html !== undefined ? 'text/html; charset=utf-8' : undefined);
  if (contentType) headers['content-type'] = contentType;
  response.writeHead(page.status ?? (page.redirectTo !== undefined ? 302 : 200), headers);
  if (page.hang === 'mid-body') {
    response.write(body);
    return;
  }
  response.end(body);
}

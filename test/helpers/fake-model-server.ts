import { type FakeHttpServer, startFakeHttpServer } from '../../src/testing/fake-http-server.js';

export interface FakeModelServerOptions {
  /** Path → file content served there; any other path is a 404. */
  files: Record<string, Buffer>;
  /** The first `cuts` full or ranged downloads stop (socket destroyed) after this many bytes. */
  cutAfterBytes?: number;
  cuts?: number;
  /** Serve the whole file with 200 whatever Range asks (a server without range support). */
  ignoreRange?: boolean;
}

/**
 * A real HTTP server on 127.0.0.1 that serves model files the way a CDN does: Content-Length,
 * Accept-Ranges, 206 with Content-Range for `Range: bytes=N-`, 416 past the end. It can cut a
 * transfer part-way, so resuming is tested against a real broken connection.
 */
export function startFakeModelServer(options: FakeModelServerOptions): Promise<FakeHttpServer> {
  let cutsLeft = options.cutAfterBytes === undefined ? 0 : (options.cuts ?? 1);
  return startFakeHttpServer((request, response) => {
    const file = options.files[request.path];
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Entry not found');
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(String(request.headers.range ?? ''));
    const start = range && !options.ignoreRange ? Number(range[1]) : 0;
    if (start >= file.length && start > 0) {
      response.writeHead(416, { 'content-range': `bytes */${file.length}` }).end();
      return;
    }
    const body = file.subarray(start);
    response.writeHead(start > 0 ? 206 : 200, {
      'content-type': 'application/octet-stream',
      'content-length': String(body.length),
      'accept-ranges': 'bytes',
      ...(start > 0 ? { 'content-range': `bytes ${start}-${file.length - 1}/${file.length}` } : {}),
    });
    if (cutsLeft > 0 && options.cutAfterBytes! < body.length) {
      cutsLeft--;
      response.write(body.subarray(0, options.cutAfterBytes), () => {
        // Let the bytes reach the client before the connection breaks mid-body.
        setTimeout(() => response.destroy(), 20);
      });
      return;
    }
    response.end(body);
  });
}

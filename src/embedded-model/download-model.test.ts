import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer } from '../../test/helpers/fake-model-server.js';
import { buildTinyGguf } from '../../test/helpers/tiny-gguf.js';
import { startFakeHttpServer } from '../testing/fake-http-server.js';
import { type DownloadProgress, downloadModel, ModelDownloadError } from './download-model.js';

// A real (tiny, random-weight) GGUF: the download checks the file is one before installing it.
const file = buildTinyGguf({ seed: 3 });
const sha256 = createHash('sha256').update(file).digest('hex');
const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: Omit<Parameters<typeof startFakeModelServer>[0], 'files'> = {}) {
  const server = await startFakeModelServer({ files: { '/model.gguf': file }, ...options });
  servers.push(server);
  return server;
}

function target() {
  const dir = mkdtempSync(join(tmpdir(), 'deepsearch-download-'));
  return { dir, destination: join(dir, 'model.gguf') };
}

async function failure(promise: Promise<unknown>): Promise<ModelDownloadError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ModelDownloadError);
  return error as ModelDownloadError;
}

describe('downloadModel (a real HTTP server on 127.0.0.1)', () => {
  it('downloads, verifies size and SHA-256, and renames into place', async () => {
    const server = await serve();
    const { dir, destination } = target();
    const progress: DownloadProgress[] = [];
    const result = await downloadModel({
      url: `${server.url}/model.gguf`,
      destination,
      expectedBytes: file.length,
      sha256,
      onProgress: (update) => progress.push(update),
    });
    expect(result).toMatchObject({
      path: destination,
      bytes: file.length,
      sha256,
      resumedFrom: 0,
      verified: true,
    });
    expect(readFileSync(destination).equals(file)).toBe(true);
    expect(readdirSync(dir)).toEqual(['model.gguf']);
    expect(progress.at(-1)).toMatchObject({ received: file.length, total: file.length });
    expect(server.requests[0]!.headers.range).toBeUndefined();
  });

  it('keeps the part of a cut transfer and resumes it with a Range request', async () => {
    const server = await serve({ cutAfterBytes: 120_000 });
    const { dir, destination } = target();
    const options = { url: `${server.url}/model.gguf`, destination, expectedBytes: file.length, sha256 };
    const cut = await failure(downloadModel(options));
    expect(cut.failure).toBe('offline');
    expect(cut.message).toContain('run the pull again to resume it');
    expect(existsSync(destination)).toBe(false);
    const partSize = readFileSync(`${destination}.part`).length;
    expect(partSize).toBeGreaterThan(0);
    const result = await downloadModel(options);
    expect(server.requests[1]!.headers.range).toBe(`bytes=${partSize}-`);
    expect(result).toMatchObject({ resumedFrom: partSize, bytes: file.length, verified: true });
    expect(readFileSync(destination).equals(file)).toBe(true);
    expect(readdirSync(dir)).toEqual(['model.gguf']);
  });

  it('starts over when the server ignores the range', async () => {
    const server = await serve({ ignoreRange: true });
    const { destination } = target();
    writeFileSync(`${destination}.part`, file.subarray(0, 1000));
    const result = await downloadModel({ url: `${server.url}/model.gguf`, destination, sha256 });
    expect(server.requests[0]!.headers.range).toBe('bytes=1000-');
    expect(result).toMatchObject({ resumedFrom: 0, bytes: file.length, verified: true });
  });

  it('deletes a file whose checksum does not match and says so', async () => {
    const server = await serve();
    const { dir, destination } = target();
    const wrong = '0'.repeat(64);
    const error = await failure(
      downloadModel({
        url: `${server.url}/model.gguf`,
        destination,
        expectedBytes: file.length,
        sha256: wrong,
      }),
    );
    expect(error.failure).toBe('checksum_mismatch');
    expect(error.code).toBe('model_download_checksum_mismatch');
    expect(error.message).toContain(`SHA-256 ${sha256}; expected ${file.length} bytes, ${wrong}`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a part left by another file is dropped and the download starts over, verified', async () => {
    const server = await serve();
    const { dir, destination } = target();
    writeFileSync(`${destination}.part`, randomBytes(7_000));
    const result = await downloadModel({ url: `${server.url}/model.gguf`, destination, sha256 });
    expect(result).toMatchObject({ resumedFrom: 0, bytes: file.length, verified: true, sha256 });
    expect(readFileSync(destination).equals(file)).toBe(true);
    expect(server.requests.map((request) => request.headers.range)).toEqual(['bytes=7000-', undefined]);
    expect(readdirSync(dir)).toEqual(['model.gguf']);
  });

  it('a file that is not a GGUF model (an HTML page) is deleted and named as such', async () => {
    const page = Buffer.from('<!DOCTYPE html><html><body>Model card</body></html>');
    const server = await startFakeModelServer({ files: { '/card.gguf': page } });
    servers.push(server);
    const { dir, destination } = target();
    const error = await failure(downloadModel({ url: `${server.url}/card.gguf`, destination }));
    expect(error.failure).toBe('invalid_file');
    expect(error.code).toBe('model_download_invalid_file');
    expect(error.message).toBe(
      `the file downloaded from ${server.url}/card.gguf is not a valid GGUF model: it does not start with ` +
        'the GGUF signature (it starts with "<!DOCTYPE html><"); it was deleted; check the URL points at ' +
        'the .gguf file itself (not a web page about it)',
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a 404 names the URL and leaves nothing behind', async () => {
    const server = await serve();
    const { dir, destination } = target();
    const error = await failure(downloadModel({ url: `${server.url}/missing.gguf`, destination }));
    expect(error.failure).toBe('not_found');
    expect(error.message).toBe(`no model file at ${server.url}/missing.gguf (HTTP 404)`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('offline: a server that is down is named, and nothing is written', async () => {
    const down = await startFakeHttpServer((_request, response) => void response.end());
    await down.close();
    const { dir, destination } = target();
    const error = await failure(downloadModel({ url: `${down.url}/model.gguf`, destination }));
    expect(error.failure).toBe('offline');
    expect(error.message).toMatch(
      new RegExp(`^cannot reach ${down.url.replace(/[.]/g, '\\.')}/model\\.gguf: `),
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses before downloading when the disk has no room for the file', async () => {
    const server = await serve();
    const { dir, destination } = target();
    const error = await failure(
      downloadModel({
        url: `${server.url}/model.gguf`,
        destination,
        expectedBytes: file.length,
        freeBytes: async () => 10_000_000,
      }),
    );
    expect(error.failure).toBe('disk_full');
    expect(error.message).toContain(`not enough disk space in ${dir}`);
    expect(server.requests).toHaveLength(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.skipIf(!existsSync('/dev/full'))('a disk that fills up mid-download leaves no half file', async () => {
    const server = await serve();
    const { dir, destination } = target();
    // Writing to /dev/full fails with ENOSPC, as a full disk does.
    symlinkSync('/dev/full', `${destination}.part`);
    const error = await failure(downloadModel({ url: `${server.url}/model.gguf`, destination, sha256 }));
    expect(error.failure).toBe('disk_full');
    expect(error.message).toContain('the disk filled up');
    expect(readdirSync(dir)).toEqual([]);
  });
});

import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  AbortedError,
  DeepSearchError,
  hasErrorMarker,
  isAbortError,
  markError,
  ProviderError,
} from '../core/errors/index.js';
import { describeNetworkError, displayUrl } from '../platform/http/describe-network-error.js';
import { withSafeRedirects } from '../platform/http/redirect-safe-fetch.js';
import { checkGgufFile } from './gguf-header.js';
import { partialSuffix } from './model-store.js';

export type DownloadFailure =
  | 'offline'
  | 'not_found'
  | 'http_error'
  | 'checksum_mismatch'
  | 'disk_full'
  | 'invalid_file';

/** A download that failed; `code` is `model_download_<failure>`. */
export class ModelDownloadError extends ProviderError {
  readonly failure: DownloadFailure;
  constructor(failure: DownloadFailure, message: string, cause?: unknown) {
    super(message, { providerId: 'model-download', code: `model_download_${failure}`, cause });
    markError(this, 'ModelDownloadError');
    this.failure = failure;
  }

  static override isInstance(value: unknown): value is ModelDownloadError {
    return hasErrorMarker(value, 'ModelDownloadError');
  }
}

export interface DownloadProgress {
  received: number;
  total: number | undefined;
  /** Bytes per second over the last few seconds. */
  bytesPerSecond: number;
  /** Bytes already on disk from an earlier, interrupted download. */
  resumedFrom: number;
}

export interface DownloadOptions {
  url: string;
  /** The final file; the download goes to `<destination>.part` and is renamed once verified. */
  destination: string;
  expectedBytes?: number;
  sha256?: string;
  /** The outbound fetch (a proxy-aware one from the entry point); default globalThis.fetch. */
  fetch?: typeof globalThis.fetch;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** Free bytes where the file goes; tests simulate a full disk here. Default: statfs. */
  freeBytes?: (dir: string) => Promise<number>;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  sha256: string;
  resumedFrom: number;
  verified: boolean;
}

/** Room kept free beside the model, so a download never fills the disk to the last byte. */
const spareBytes = 64 * 1024 * 1024;

/**
 * Downloads a model file: resumed with an HTTP Range request when a `.part` of it is on disk,
 * checked against the expected size and SHA-256 and as a GGUF file, and renamed into place only then, so the
 * destination is either the whole verified file or absent. An interrupted transfer (network cut,
 * Ctrl-C) keeps the `.part` for the next try; a 404, a checksum mismatch or a full disk deletes it.
 */
export async function downloadModel(options: DownloadOptions): Promise<DownloadResult> {
  const part = `${options.destination}${partialSuffix}`;
  mkdirSync(dirname(options.destination), { recursive: true });
  let offset = existsSync(part) ? statSync(part).size : 0;
  if (options.expectedBytes !== undefined && offset > options.expectedBytes) {
    rmSync(part, { force: true });
    offset = 0;
  }
  await assertRoom(options, offset);
  const response = await request(options, offset);
  if (offset > 0 && response.status !== 206) {
    // The server sent the whole file (it ignored the range, or the part no longer matches): start over.
    rmSync(part, { force: true });
    offset = 0;
  }
  const total = totalBytes(response, offset) ?? options.expectedBytes;
  try {
    await writeBody({ response, part, offset, total, options });
  } catch (error) {
    throw writeFailure(error, part, options);
  }
  const bytes = statSync(part).size;
  // The digest of the file that is renamed into place, read back from disk (not of the bytes as
  // they streamed by: another writer of the same .part would go unseen).
  const sha256 = await hashFile(part);
  const expected = options.sha256?.toLowerCase();
  if (
    (options.expectedBytes !== undefined && bytes !== options.expectedBytes) ||
    (expected && sha256 !== expected)
  ) {
    rmSync(part, { force: true });
    // The part left by an earlier try was of another file (or damaged): once more, from the start.
    if (offset > 0) return downloadModel(options);
    throw new ModelDownloadError(
      'checksum_mismatch',
      `the file downloaded from ${displayUrl(options.url)} is not the expected one ` +
        `(${bytes} bytes, SHA-256 ${sha256}; expected ${options.expectedBytes ?? '?'} bytes, ${expected ?? '?'}): ` +
        'it was deleted; run the pull again, and if it fails the same way the file on the server has changed',
    );
  }
  const gguf = checkGgufFile(part);
  if (!gguf.ok) {
    rmSync(part, { force: true });
    throw new ModelDownloadError(
      'invalid_file',
      `the file downloaded from ${displayUrl(options.url)} is not a valid GGUF model: ${gguf.problem}; ` +
        'it was deleted; check the URL points at the .gguf file itself (not a web page about it)',
    );
  }
  renameSync(part, options.destination);
  return { path: options.destination, bytes, sha256, resumedFrom: offset, verified: Boolean(expected) };
}

async function assertRoom(options: DownloadOptions, offset: number): Promise<void> {
  if (options.expectedBytes === undefined) return;
  const free = await (options.freeBytes ?? freeBytesOnDisk)(dirname(options.destination));
  const needed = options.expectedBytes - offset;
  if (free < needed + spareBytes) {
    throw new ModelDownloadError(
      'disk_full',
      `not enough disk space in ${dirname(options.destination)}: the model needs ${formatBytes(needed)} more ` +
        `and ${formatBytes(free)} is free; free some space or set DEEPSEARCH_MODELS_DIR to a larger disk`,
    );
  }
}

async function freeBytesOnDisk(dir: string): Promise<number> {
  const stats = await statfs(dir);
  return Number(stats.bavail) * Number(stats.bsize);
}

async function request(options: DownloadOptions, offset: number): Promise<Response> {
  const fetchImpl = withSafeRedirects(options.fetch ?? globalThis.fetch);
  let response: Response;
  try {
    response = await fetchImpl(options.url, {
      headers: offset > 0 ? { range: `bytes=${offset}-` } : {},
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted || isAbortError(error)) throw new AbortedError(undefined, { cause: error });
    throw new ModelDownloadError(
      'offline',
      `cannot reach ${displayUrl(options.url)}: ${describeNetworkError(error)}; check the network ` +
        '(and HTTPS_PROXY behind a proxy), then run the pull again',
      error,
    );
  }
  if (response.ok) return response;
  await response.body?.cancel();
  if (response.status === 404) {
    if (offset > 0) rmSync(`${options.destination}${partialSuffix}`, { force: true });
    throw new ModelDownloadError('not_found', `no model file at ${displayUrl(options.url)} (HTTP 404)`);
  }
  if (response.status === 416 && offset > 0) {
    // The part is complete or longer than the file: start over without it.
    rmSync(`${options.destination}${partialSuffix}`, { force: true });
    return request(options, 0);
  }
  throw new ModelDownloadError(
    'http_error',
    `the download from ${displayUrl(options.url)} failed with HTTP ${response.status}; run the pull again later`,
  );
}

function totalBytes(response: Response, offset: number): number | undefined {
  const range = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
  if (range) return Number(range[1]);
  const length = Number(response.headers.get('content-length'));
  return Number.isFinite(length) && length > 0 ? length + (response.status === 206 ? offset : 0) : undefined;
}

/** Streams the body to the part file, appending to what an earlier try left. */
async function writeBody(input: {
  response: Response;
  part: string;
  offset: number;
  total: number | undefined;
  options: DownloadOptions;
}): Promise<void> {
  const { response, offset, total, options } = input;
  if (!response.body) throw new ModelDownloadError('http_error', 'the server sent no body');
  const rate = createRateMeter(offset);
  const handle = await open(input.part, offset > 0 ? 'a' : 'w');
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      await handle.write(chunk);
      const received = rate.add(chunk.length);
      options.onProgress?.({ received, total, bytesPerSecond: rate.perSecond(), resumedFrom: offset });
    }
  } finally {
    await handle.close();
  }
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Bytes received so far and the rate over the last five seconds. */
function createRateMeter(start: number) {
  let received = start;
  const window: Array<[number, number]> = [[performance.now(), start]];
  return {
    add(bytes: number): number {
      received += bytes;
      const now = performance.now();
      window.push([now, received]);
      while (window.length > 2 && now - window[0]![0] > 5000) window.shift();
      return received;
    },
    perSecond(): number {
      const [since, from] = window[0]!;
      const seconds = (performance.now() - since) / 1000;
      return seconds > 0 ? (received - from) / seconds : 0;
    },
  };
}

function writeFailure(error: unknown, part: string, options: DownloadOptions): Error {
  if (DeepSearchError.isInstance(error)) return error;
  if ((error as NodeJS.ErrnoException).code === 'ENOSPC') {
    rmSync(part, { force: true });
    return new ModelDownloadError(
      'disk_full',
      `the disk filled up while downloading to ${dirname(part)}: the partial file was deleted; free some ` +
        'space or set DEEPSEARCH_MODELS_DIR to a larger disk',
      error,
    );
  }
  if (options.signal?.aborted) return new AbortedError(undefined, { cause: error });
  // A cut connection: the part stays, and the next pull resumes it.
  return new ModelDownloadError(
    'offline',
    `the download from ${displayUrl(options.url)} was cut (${describeNetworkError(error)}); run the pull ` +
      'again to resume it',
    error,
  );
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} kB`;
  return `${bytes} B`;
}

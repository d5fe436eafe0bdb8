import { createHash } from 'node:crypto';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { StoredPage } from '../agent/state/page-store.js';
import { urlKey } from '../retrieval/normalize-url.js';

/** The most text a snapshot keeps of a page (characters); the hash is of the whole text. */
export const snapshotMaxChars = 200_000;

/**
 * What a run read of a source it cites, kept with the run: the text its quotes were checked
 * against, as it was then, so the evidence holds after the page changes or goes.
 */
export interface SourceSnapshot {
  /** The URL the run cites (the page's URL after redirects, as references name it). */
  url: string;
  title: string;
  /** When the page was fetched (ISO 8601). */
  fetchedAt: string;
  /** The HTTP status it came with; null when the reader does not say (a cache, an API reader). */
  status: number | null;
  /** sha-256 (hex) of the whole extracted text. */
  hash: string;
  /** The extracted text, the first snapshotMaxChars of it. */
  text: string;
  /** The text was longer than what is kept. */
  truncated: boolean;
  siteName?: string;
  author?: string;
  publishedAt?: string;
}

/** A snapshot as both run stores keep it: a few columns, the rest as JSON, the text compressed. */
export interface SnapshotRow {
  url: string;
  title: string;
  fetched_at: string;
  status: number | null;
  hash: string;
  meta: string;
  body: Buffer;
}

export function snapshotOf(page: StoredPage): SourceSnapshot {
  const truncated = page.text.length > snapshotMaxChars;
  return {
    url: page.url,
    title: page.title,
    fetchedAt: page.fetchedAt ?? new Date().toISOString(),
    status: page.status ?? null,
    hash: createHash('sha256').update(page.text).digest('hex'),
    text: truncated ? page.text.slice(0, snapshotMaxChars) : page.text,
    truncated,
    ...(page.siteName ? { siteName: page.siteName } : {}),
    ...(page.byline ? { author: page.byline } : {}),
    ...(page.publishedAt ? { publishedAt: page.publishedAt } : {}),
  };
}

/**
 * The snapshots of the pages `references` cite, once per URL, in the order first cited. A
 * reference whose quote came from a search result's snippet (no page read) has none.
 */
export function citedSnapshots(
  references: ReadonlyArray<{ url: string }>,
  pageFor: (url: string) => StoredPage | undefined,
): SourceSnapshot[] {
  const snapshots = new Map<string, SourceSnapshot>();
  for (const { url } of references) {
    const key = urlKey(url) ?? url;
    if (snapshots.has(key)) continue;
    const page = pageFor(url);
    if (page) snapshots.set(key, { ...snapshotOf(page), url });
  }
  return [...snapshots.values()];
}

export function toSnapshotRow(snapshot: SourceSnapshot): SnapshotRow {
  const { url, title, fetchedAt, status, hash, text, ...meta } = snapshot;
  const body = brotliCompressSync(Buffer.from(text, 'utf8'), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
  });
  return { url, title, fetched_at: fetchedAt, status, hash, meta: JSON.stringify(meta), body };
}

export function fromSnapshotRow(row: Record<string, unknown>): SourceSnapshot {
  const meta = JSON.parse(String(row.meta)) as Pick<
    SourceSnapshot,
    'truncated' | 'siteName' | 'author' | 'publishedAt'
  >;
  const status = row.status === null || row.status === undefined ? null : Number(row.status);
  return {
    url: String(row.url),
    title: String(row.title),
    fetchedAt: String(row.fetched_at),
    status,
    hash: String(row.hash),
    text: brotliDecompressSync(row.body as Uint8Array).toString('utf8'),
    ...meta,
    truncated: meta.truncated === true,
  };
}

import * as z from 'zod';
import { BlockedUrlError } from '../../../core/errors/index.js';
import { markdownToText } from '../../../extraction/markdown-to-text.js';
import { displayUrl } from '../../../platform/http/describe-network-error.js';
import { requestJson } from '../../../platform/http/request-json.js';
import { toIsoDate } from '../../../platform/http/to-iso-date.js';
import { withRetry } from '../../../platform/retry/with-retry.js';
import type { Page, PageLink, PageReader, ReadOptions } from '../../spec/page-reader.js';

export interface JinaReaderSettings {
  /** Optional: Jina Reader answers without a key, at a lower rate limit. Read when a page is read. */
  apiKey?: string;
  /** Default https://r.jina.ai */
  baseURL?: string;
  fetch?: typeof globalThis.fetch;
  /** Per request; Jina is also told to give up a little before this. Default 30 s. */
  timeoutMs?: number;
  /** Retries of retryable failures (timeouts, 429, 5xx); default 1. */
  maxRetries?: number;
}

const providerId = 'jina-reader';
const defaultBaseUrl = 'https://r.jina.ai';

// Jina Reader's JSON mode: { code, status, data: { title, url, content, publishedTime?, links? } }.
// links come as [anchor, url] pairs ('X-With-Links-Summary: all') or, in older answers, an object.
const jinaLinksSchema = z.union([
  z.array(z.tuple([z.string(), z.string()])),
  z.record(z.string(), z.string()),
]);
const jinaResponseSchema = z.looseObject({
  data: z.looseObject({
    title: z.string().nullish(),
    url: z.string().nullish(),
    content: z.string(),
    description: z.string().nullish(),
    publishedTime: z.string().nullish(),
    links: jinaLinksSchema.nullish(),
  }),
});

/** Pages read through Jina Reader (POST r.jina.ai with the URL; markdown and links back as JSON). */
export function createJinaReader(settings: JinaReaderSettings = {}): PageReader {
  const timeoutMs = settings.timeoutMs ?? 30_000;
  return {
    specificationVersion: 'v1',
    id: 'jina',
    async read(url: string, options: ReadOptions = {}): Promise<Page> {
      assertWebUrl(url);
      const endpoint = `${(settings.baseURL ?? defaultBaseUrl).replace(/\/+$/, '')}/`;
      const body = await withRetry(
        () =>
          requestJson({
            providerId,
            url: endpoint,
            method: 'POST',
            body: { url },
            headers: requestHeaders(settings.apiKey, timeoutMs),
            schema: jinaResponseSchema,
            fetch: settings.fetch,
            timeoutMs,
            signal: options.signal,
            keyHint: 'JINA_API_KEY',
          }),
        { maxRetries: settings.maxRetries ?? 1, signal: options.signal },
      );
      return toPage(url, body.data);
    },
  };
}

function requestHeaders(apiKey: string | undefined, timeoutMs: number): Record<string, string> {
  return {
    accept: 'application/json',
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    // Links separately (for URL ranking), not inline in the markdown; no image markup.
    'x-with-links-summary': 'all',
    'x-md-link-style': 'discarded',
    'x-retain-images': 'none',
    'x-timeout': String(Math.max(1, Math.floor(timeoutMs / 1000) - 2)),
  };
}

function assertWebUrl(url: string): void {
  const protocol = URL.canParse(url) ? new URL(url).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new BlockedUrlError(
      `refusing to read ${JSON.stringify(url)}: only http and https URLs can be read`,
      {
        url,
      },
    );
  }
}

function toPage(requestedUrl: string, data: z.infer<typeof jinaResponseSchema>['data']): Page {
  const url = data.url && URL.canParse(data.url) ? data.url : requestedUrl;
  const markdown = data.content.trim();
  return {
    requestedUrl,
    url,
    title: data.title?.trim() || displayUrl(url),
    markdown,
    text: markdownToText(markdown),
    links: toLinks(data.links, url),
    publishedAt: toIsoDate(data.publishedTime),
    contentType: 'text/markdown',
  };
}

function toLinks(links: z.infer<typeof jinaLinksSchema> | null | undefined, pageUrl: string): PageLink[] {
  if (!links) return [];
  const pairs = Array.isArray(links) ? links : Object.entries(links);
  const byUrl = new Map<string, PageLink>();
  for (const [text, href] of pairs) {
    if (!URL.canParse(href, pageUrl)) continue;
    const absolute = new URL(href, pageUrl);
    if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') continue;
    if (!byUrl.has(absolute.href)) byUrl.set(absolute.href, { url: absolute.href, text: text.trim() });
  }
  return [...byUrl.values()];
}

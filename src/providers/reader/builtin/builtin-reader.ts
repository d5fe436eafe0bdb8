import { ProviderError } from '../../../errors/index.js';
import { displayUrl } from '../../http/describe-network-error.js';
import type { HostLookup } from '../../http/network-guard.js';
import { toIsoDate } from '../../http/to-iso-date.js';
import type { Page, PageReader, ReadOptions } from '../../spec/page-reader.js';
import { withRetry } from '../../with-retry.js';
import { decodeBody, isHtmlType } from './decode-body.js';
import { extractHtmlPage } from './extract-html-page.js';
import { type FetchedBody, fetchPage } from './fetch-page.js';

export interface BuiltinReaderSettings {
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  allowPrivateNetwork?: boolean;
  userAgent?: string;
  /** Retries of retryable failures (timeouts, 429, 5xx); default 1. */
  maxRetries?: number;
  lookup?: HostLookup;
}

const providerId = 'builtin-reader';
export const defaultUserAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 deepsearch/0.1';

/** Fetches pages itself (network guard on every hop) and extracts the main content with Readability. */
export function createBuiltinReader(settings: BuiltinReaderSettings = {}): PageReader {
  return {
    id: 'builtin',
    async read(url: string, options: ReadOptions = {}): Promise<Page> {
      const fetched = await withRetry(
        () =>
          fetchPage({
            url,
            providerId,
            fetch: settings.fetch,
            timeoutMs: settings.timeoutMs ?? 20_000,
            maxBytes: settings.maxBytes ?? 5 * 1024 * 1024,
            maxRedirects: settings.maxRedirects ?? 5,
            allowPrivateNetwork: settings.allowPrivateNetwork ?? false,
            userAgent: settings.userAgent ?? defaultUserAgent,
            signal: options.signal,
            lookup: settings.lookup,
          }),
        { maxRetries: settings.maxRetries ?? 1, signal: options.signal },
      );
      return toPage(url, fetched);
    },
  };
}

/** The page as the agent sees it, by content type: HTML is extracted, text-like bodies pass through. */
export function toPage(requestedUrl: string, fetched: FetchedBody): Page {
  const contentType = fetched.contentType.split(';')[0]!.trim().toLowerCase() || 'text/html';
  const body = decodeBody(fetched.bytes, fetched.contentType);
  const headerDate = toIsoDate(fetched.lastModified);
  if (isHtmlType(contentType) || (contentType === 'application/octet-stream' && /^\s*</.test(body))) {
    const page = extractHtmlPage(body, fetched.url);
    return {
      requestedUrl,
      url: fetched.url,
      contentType,
      ...page,
      modifiedAt: page.modifiedAt ?? headerDate,
    };
  }
  if (contentType.startsWith('text/') || isJsonType(contentType)) {
    const text = isJsonType(contentType) ? prettyJson(body) : body.trim();
    const markdown =
      contentType === 'text/plain' || contentType === 'text/markdown' ? text : `\`\`\`\n${text}\n\`\`\``;
    return {
      requestedUrl,
      url: fetched.url,
      contentType,
      title: firstLine(text) ?? displayUrl(fetched.url),
      markdown,
      text,
      links: [],
      modifiedAt: headerDate,
    };
  }
  throw new ProviderError(
    `${displayUrl(fetched.url)} is ${contentType}, which the built-in reader cannot read`,
    {
      providerId,
      code: 'page_unsupported_type',
    },
  );
}

function isJsonType(contentType: string): boolean {
  return contentType === 'application/json' || contentType.endsWith('+json');
}

function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body.trim();
  }
}

function firstLine(text: string): string | undefined {
  const line = text.split('\n').find((candidate) => candidate.trim());
  return line
    ? line
        .replace(/^#+\s*/, '')
        .trim()
        .slice(0, 120)
    : undefined;
}

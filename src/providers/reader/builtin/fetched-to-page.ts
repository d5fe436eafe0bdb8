import { ProviderError } from '../../../errors/index.js';
import { displayUrl } from '../../http/describe-network-error.js';
import { toIsoDate } from '../../http/to-iso-date.js';
import type { Page } from '../../spec/page-reader.js';
import { decodeBody, isHtmlType } from './decode-body.js';
import { extractHtmlPage } from './extract-html-page.js';
import type { FetchedBody } from './fetch-page.js';
import { readPdf } from './read-pdf.js';

/**
 * The page as the agent sees it, by content type: HTML is extracted, PDF read page by page,
 * markdown and plain text pass through, JSON is pretty-printed. A body served without a useful
 * type is sniffed (HTML tags, the PDF signature).
 */
export async function fetchedToPage(
  requestedUrl: string,
  fetched: FetchedBody,
  providerId: string,
): Promise<Page> {
  const contentType = sniffContentType(fetched);
  const base = { requestedUrl, url: fetched.url, contentType };
  const headerDate = toIsoDate(fetched.lastModified);
  if (contentType === 'application/pdf') {
    const pdf = await readPdf(fetched.bytes, { providerId, url: displayUrl(fetched.url) });
    return {
      ...base,
      title: pdf.title ?? firstLine(pdf.text) ?? displayUrl(fetched.url),
      markdown: pdf.text,
      text: pdf.text,
      links: [],
      byline: pdf.byline,
      publishedAt: pdf.publishedAt,
      modifiedAt: pdf.modifiedAt ?? headerDate,
    };
  }
  const body = decodeBody(fetched.bytes, fetched.contentType);
  if (isHtmlType(contentType)) {
    const page = extractHtmlPage(body, fetched.url);
    return { ...base, ...page, modifiedAt: page.modifiedAt ?? headerDate };
  }
  if (contentType.startsWith('text/') || isJsonType(contentType)) {
    const text = isJsonType(contentType) ? prettyJson(body) : body.trim();
    const passThrough = contentType === 'text/plain' || contentType === 'text/markdown';
    return {
      ...base,
      title: firstLine(text) ?? displayUrl(fetched.url),
      markdown: passThrough ? text : `\`\`\`\n${text}\n\`\`\``,
      text,
      links: [],
      modifiedAt: headerDate,
    };
  }
  throw new ProviderError(`${displayUrl(fetched.url)} is ${contentType}, which the reader cannot read`, {
    providerId,
    code: 'page_unsupported_type',
  });
}

const pdfSignature = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

function sniffContentType(fetched: FetchedBody): string {
  const declared = fetched.contentType.split(';')[0]!.trim().toLowerCase();
  if (declared && declared !== 'application/octet-stream' && declared !== 'binary/octet-stream') {
    return declared === 'text/x-markdown' ? 'text/markdown' : declared;
  }
  if (pdfSignature.every((byte, index) => fetched.bytes[index] === byte)) return 'application/pdf';
  const head = new TextDecoder().decode(fetched.bytes.subarray(0, 512)).trimStart();
  if (head.startsWith('<')) return 'text/html';
  if (/^[{[]/.test(head)) return 'application/json';
  return declared ? 'application/octet-stream' : 'text/plain';
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

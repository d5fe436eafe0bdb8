import { isNetworkUrl } from '../platform/http/source-schemes.js';

// Parameters that only say where a click came from. Ambiguous ones ("ref", "source", "id") are
// kept: on some sites they pick the content (GitHub's ?ref= is a branch).
const trackingParameters = new Set([
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'mc_cid',
  'mc_eid',
  'igshid',
  'igsh',
  'ref_src',
  'ref_url',
  '_hsenc',
  '_hsmi',
  'yclid',
  '_ga',
  '_gl',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'vero_id',
  'wickedid',
  'spm',
  'scm',
  '__twitter_impression',
]);

/**
 * A source fit to fetch and to compare, by scheme. http(s): lower-case scheme and host, no default
 * port, no credentials, no tracking parameters, no fragment unless the site routes on it (#/ or
 * #!). file: an absolute local path (dot segments resolved, no query or fragment; a file URL naming
 * another machine is refused). kb: kept opaque, the knowledge base's own id, only the scheme
 * lower-cased. Returns undefined for anything else (mailto:, javascript:, ftp:, plain text).
 */
export function normalizeUrl(input: string, base?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    return undefined;
  }
  switch (url.protocol) {
    case 'http:':
    case 'https:':
      return normalizeWebUrl(url);
    case 'file:':
      return normalizeFileUrl(url);
    case 'kb:':
      // Opaque: the knowledge base decides what its ids mean; "kb:" alone names nothing.
      return url.href.length > 'kb:'.length ? url.href : undefined;
    default:
      return undefined;
  }
}

function normalizeWebUrl(url: URL): string {
  url.username = '';
  url.password = '';
  if ((url.protocol === 'http:' && url.port === '80') || (url.protocol === 'https:' && url.port === '443')) {
    url.port = '';
  }
  for (const key of [...url.searchParams.keys()]) {
    if (key.toLowerCase().startsWith('utm_') || trackingParameters.has(key.toLowerCase())) {
      url.searchParams.delete(key);
    }
  }
  if (!/^#[!/]/.test(url.hash)) url.hash = '';
  return url.toString();
}

function normalizeFileUrl(url: URL): string | undefined {
  // file://server/share is a network share: reading it would be a network access by another door.
  if (url.hostname !== '' || url.pathname === '/' || url.pathname.endsWith('/')) return undefined;
  url.search = '';
  url.hash = '';
  return url.href;
}

/**
 * A key under which the same page is one page: with or without www., a trailing slash, a
 * trailing dot on the host, http or https, parameters in any order. A local source's key is its
 * normalised URL (it keeps its scheme, so it never equals a web page's key).
 */
export function urlKey(input: string): string | undefined {
  if (knownKeys.has(input)) return knownKeys.get(input);
  // A run asks for the key of the same few URLs dozens of times (pages, sources, citations), and
  // each answer costs two URL parses: the last answers are kept, the whole memo dropped when full.
  if (knownKeys.size >= 4096) knownKeys.clear();
  const key = computeUrlKey(input);
  knownKeys.set(input, key);
  return key;
}

const knownKeys = new Map<string, string | undefined>();

function computeUrlKey(input: string): string | undefined {
  const normal = normalizeUrl(input);
  if (!normal) return undefined;
  if (!isNetworkUrl(normal)) return normal;
  const url = new URL(normal);
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '';
  // Parameter order does not change the page: ?a=1&b=2 and ?b=2&a=1 are one URL.
  url.searchParams.sort();
  return `${host.replace(/\.$/, '')}${url.port ? `:${url.port}` : ''}${path}${url.search}${url.hash}`;
}

/** The host of a network source without www.; '' for local sources (file:, kb:) and non-URLs. */
export function hostOf(input: string): string {
  if (!isNetworkUrl(input)) return '';
  try {
    return new URL(input).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

const sourceUrlPattern = /\b(?:https?:\/\/|file:\/\/\/|kb:)[^\s<>"'）)]+/gi;

/**
 * Sources written in a text (the question): http(s) URLs, absolute file:/// URLs and kb: ids, in
 * order, normalised, once each, with trailing punctuation dropped.
 */
export function findSourceUrls(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.match(sourceUrlPattern) ?? []) {
    const url = normalizeUrl(match.replace(/[.,;:!?]+$/, ''));
    if (url) found.add(url);
  }
  return [...found];
}

export { isNetworkUrl, localSchemes, networkSchemes, schemeOf } from '../platform/http/source-schemes.js';

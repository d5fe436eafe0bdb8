const trackingParameters = new Set([
  'fbclid',
  'gclid',
  'dclid',
  'msclkid',
  'mc_cid',
  'mc_eid',
  'igshid',
  'ref_src',
  '_hsenc',
  '_hsmi',
  'yclid',
]);

/**
 * A URL fit to fetch and to compare: lower-case scheme and host, no default port, no tracking
 * parameters, no fragment unless the site routes on it (#/ or #!). Returns undefined for
 * anything that is not an absolute http(s) URL.
 */
export function normalizeUrl(input: string, base?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(input.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
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

/** A key under which the same page seen with or without www. or a trailing slash is one page. */
export function urlKey(input: string): string | undefined {
  const normal = normalizeUrl(input);
  if (!normal) return undefined;
  const url = new URL(normal);
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '';
  return `${host}${url.port ? `:${url.port}` : ''}${path}${url.search}${url.hash}`;
}

export function hostOf(input: string): string {
  try {
    return new URL(input).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

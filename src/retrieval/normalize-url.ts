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

/**
 * A key under which the same page is one page: with or without www., a trailing slash, a
 * trailing dot on the host, http or https, parameters in any order.
 */
export function urlKey(input: string): string | undefined {
  const normal = normalizeUrl(input);
  if (!normal) return undefined;
  const url = new URL(normal);
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '';
  // Parameter order does not change the page: ?a=1&b=2 and ?b=2&a=1 are one URL.
  url.searchParams.sort();
  return `${host.replace(/\.$/, '')}${url.port ? `:${url.port}` : ''}${path}${url.search}${url.hash}`;
}

export function hostOf(input: string): string {
  try {
    return new URL(input).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

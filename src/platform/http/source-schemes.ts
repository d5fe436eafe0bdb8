/**
 * The schemes a source may have. Network sources are fetched: the SSRF guard, host lists, host
 * health and the page cache are about them. Local sources are read from this machine: `file:` (a
 * document) and `kb:` (the local knowledge base); they are cited like pages but have no host.
 */
export const networkSchemes: readonly string[] = ['http:', 'https:'];
export const localSchemes: readonly string[] = ['file:', 'kb:'];

/** The source's scheme, lower-cased with its colon ("https:", "file:"), or undefined. */
export function schemeOf(input: string): string | undefined {
  const match = /^\s*([a-z][a-z0-9+.-]*):/i.exec(input);
  return match ? `${match[1]!.toLowerCase()}:` : undefined;
}

/** True for http(s) sources: the ones the network guard, host lists, host health and cache are about. */
export function isNetworkUrl(input: string): boolean {
  const scheme = schemeOf(input);
  return scheme !== undefined && networkSchemes.includes(scheme);
}

import { hostOf } from '../../retrieval/normalize-url.js';

/** A host's trust, 0..1 (host lower-cased, without www.), or undefined when nothing is known (domain trust profiles plug in here). */
export type TrustOf = (host: string) => number | undefined;

const institutional =
  /\.(gov|edu|int|mil)(\.[a-z]{2})?$|(^|\.)(europa\.eu|who\.int|oecd\.org|un\.org|worldbank\.org|imf\.org)$/;
const reference =
  /(^|\.)(wikipedia\.org|britannica\.com|nature\.com|science\.org|arxiv\.org|nih\.gov|reuters\.com|apnews\.com)$/;
const userContent =
  /(^|\.)(medium\.com|blogspot\.com|wordpress\.com|substack\.com|reddit\.com|quora\.com|tumblr\.com|facebook\.com|x\.com|twitter\.com|tiktok\.com)$/;

/**
 * An offline guess at a source's trust from its URL alone (no network, so it costs nothing per source): HTTPS,
 * institutional and reference hosts up, user-generated content down. Used when no profile knows
 * the host.
 */
export function heuristicTrust(url: string): number {
  const host = hostOf(url).toLowerCase();
  let trust = 0.5;
  if (url.startsWith('https://')) trust += 0.05;
  if (institutional.test(host)) trust += 0.3;
  else if (reference.test(host)) trust += 0.2;
  if (userContent.test(host)) trust -= 0.2;
  if (/\d+\.\d+\.\d+\.\d+/.test(host) || host.split('.').length > 4) trust -= 0.1;
  return Math.round(Math.min(1, Math.max(0, trust)) * 100) / 100;
}

/** The profile's trust for the URL's host when it has one, else the heuristic. */
export function trustFor(url: string, trustOf?: TrustOf): number {
  return trustOf?.(hostOf(url).toLowerCase()) ?? heuristicTrust(url);
}

import { Int32Arena } from './int32-arena.js';
import type { UrlCandidate } from './rank-urls.js';
import { createTermIndex, type TermIndex, type TokenisedText } from './term-index.js';

/**
 * What ranking needs from a URL's text and path, computed once per URL record: the agent ranks
 * the same growing set of records at every step, and tokenising ten thousand titles and snippets
 * costs far more than scoring them. A record's entry is redone when its title, snippet, anchors or
 * URL change (records gain a title or anchors as they are seen again).
 */
export interface UrlFeatures {
  text: TokenisedText;
  /** Hashes of the URL's path prefixes, host first (see forEachPrefixHash). */
  prefixHashes: Int32Array;
}

interface CachedFeatures extends UrlFeatures {
  index: TermIndex;
  url: string;
  title: string;
  snippet: string;
  anchorCount: number;
}

// Weak: an entry lives as long as its record, and the caller's records are left untouched (a
// property added to ten thousand records would also slow every other read of them).
const cache = new WeakMap<UrlCandidate, CachedFeatures>();

// One shared vocabulary, replaced once it holds this many words; features made with an older
// one are then made again.
const maxWords = 1_000_000;
let sharedIndex: TermIndex | undefined;

/** The term index the features' word ids belong to. */
export function urlTermIndex(): TermIndex {
  if (!sharedIndex || sharedIndex.size > maxWords) sharedIndex = createTermIndex();
  return sharedIndex;
}

export function featuresOf(candidate: UrlCandidate): UrlFeatures {
  const index = urlTermIndex();
  const cached = cache.get(candidate);
  if (
    cached &&
    cached.index === index &&
    cached.url === candidate.url &&
    cached.title === candidate.title &&
    cached.snippet === candidate.snippet &&
    cached.anchorCount === candidate.anchors.length
  )
    return cached;
  const features: CachedFeatures = {
    index,
    url: candidate.url,
    title: candidate.title,
    snippet: candidate.snippet,
    anchorCount: candidate.anchors.length,
    text: index.tokenise([candidate.title, candidate.snippet, candidate.anchors.join(' ')]),
    prefixHashes: prefixHashesOf(candidate.url),
  };
  cache.set(candidate, features);
  return features;
}

const prefixHashes = new Int32Arena();

function prefixHashesOf(url: string): Int32Array {
  forEachPrefixHash(url, (hash) => prefixHashes.push(hash));
  return prefixHashes.take();
}

// 30 bits: V8 keeps such numbers unboxed, which makes the Map of prefix counts several times faster.
const smallIntegerMask = 0x3fffffff;

/**
 * Calls back with the hash of each path prefix of the URL, host first; query and fragment
 * ignored. A running 32-bit hash of the URL's characters: no substring is built, and a rare
 * collision only blurs one signal.
 */
function forEachPrefixHash(url: string, visit: (hash: number) => void): void {
  const schemeEnd = url.indexOf('://');
  const from = schemeEnd === -1 ? 0 : schemeEnd + 3;
  let hash = 0x811c9dc5;
  let emitted = false;
  for (let index = from; index < url.length; index++) {
    const code = url.charCodeAt(index);
    if (code === 63 || code === 35) break; // ? #
    if (code === 47) {
      // a slash ends a prefix (repeated slashes count once)
      if (index > from && url.charCodeAt(index - 1) !== 47) {
        visit(hash & smallIntegerMask);
        emitted = true;
      }
      continue;
    }
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  if (!emitted) visit(hash & smallIntegerMask);
}

import { IntIds } from './int-ids.js';
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
  /** Ids of the URL's path prefixes (see prefixIdsOf) in the vocabulary's prefixes, host first. */
  prefixIds: Int32Array;
}

/** Words of URL texts and path prefixes seen so far: the ids in UrlFeatures are theirs. */
export interface UrlVocabulary {
  terms: TermIndex;
  prefixes: IntIds;
}

interface CachedFeatures extends UrlFeatures {
  vocabulary: UrlVocabulary;
  url: string;
  title: string;
  snippet: string;
  anchorCount: number;
}

// Kept on the record under a symbol, not enumerable: copies ({...record}), JSON and Object.keys()
// do not carry it, and records keep fast properties and one shape. A WeakMap, which left records
// untouched, cost about 15 ms more per 10,000 new records, in set() and in the collector.
const cacheKey = Symbol('urlFeatures');
type WithFeatures = UrlCandidate & { [cacheKey]?: CachedFeatures };

// One shared vocabulary, replaced once it holds this many words or prefixes; features made with
// an older one are then made again.
const maxEntries = 1_000_000;
let shared: UrlVocabulary | undefined;

/** The shared vocabulary; take it once per ranking, so that all its features use the same one. */
export function urlVocabulary(): UrlVocabulary {
  if (!shared || shared.terms.size > maxEntries || shared.prefixes.size > maxEntries)
    shared = { terms: createTermIndex(), prefixes: new IntIds() };
  return shared;
}

export function featuresOf(candidate: UrlCandidate, vocabulary = urlVocabulary()): UrlFeatures {
  const cached = (candidate as WithFeatures)[cacheKey];
  if (
    cached &&
    cached.vocabulary === vocabulary &&
    cached.url === candidate.url &&
    cached.title === candidate.title &&
    cached.snippet === candidate.snippet &&
    cached.anchorCount === candidate.anchors.length
  )
    return cached;
  const features: CachedFeatures = {
    vocabulary,
    url: candidate.url,
    title: candidate.title,
    snippet: candidate.snippet,
    anchorCount: candidate.anchors.length,
    text: vocabulary.terms.tokenise([candidate.title, candidate.snippet, candidate.anchors.join(' ')]),
    prefixIds: prefixIdsOf(candidate.url, vocabulary.prefixes),
  };
  // A frozen record is ranked all the same, its features made again each time.
  if (Object.isExtensible(candidate))
    Object.defineProperty(candidate, cacheKey, { value: features, writable: true, configurable: true });
  return features;
}

// Non-negative, as IntIds keys must be (and small integers V8 keeps unboxed).
const smallIntegerMask = 0x3fffffff;
const prefixArena = new Int32Arena();

/**
 * Ids of the URL's path prefixes, host first; query and fragment ignored. A prefix is keyed by a
 * running 32-bit hash of the URL's characters: no substring is built, and a rare collision only
 * blurs one signal.
 */
function prefixIdsOf(url: string, prefixes: IntIds): Int32Array {
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
        prefixArena.push(prefixes.idOf(hash & smallIntegerMask));
        emitted = true;
      }
      continue;
    }
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  if (!emitted) prefixArena.push(prefixes.idOf(hash & smallIntegerMask));
  return prefixArena.take();
}

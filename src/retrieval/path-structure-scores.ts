import type { UrlFeatures } from './url-features.js';

const pathDecay = 0.7;

/**
 * URLs in a shared path hierarchy (many siblings under /docs/api/) score higher; each level
 * counts less than the one above it, and deep pages lose a little for their depth. Prefixes
 * (host, host/a, host/a/b... the page itself excluded) are counted by their ids. Scaled to [0, 1]
 * by the best. One loop per function, as in orderByWeight().
 */
export function pathStructureScores(features: readonly UrlFeatures[], prefixCount: number): Float64Array {
  return scaledToBest(scoresFromCounts(features, prefixCounts(features, prefixCount)));
}

function prefixCounts(features: readonly UrlFeatures[], prefixCount: number): Int32Array {
  const counts = new Int32Array(prefixCount);
  for (let index = 0; index < features.length; index++) {
    const prefixIds = features[index]!.prefixIds;
    for (let level = 0; level < prefixIds.length; level++) counts[prefixIds[level]!]!++;
  }
  return counts;
}

function scoresFromCounts(features: readonly UrlFeatures[], counts: Int32Array): Float64Array {
  const scores = new Float64Array(features.length);
  for (let index = 0; index < features.length; index++) {
    const prefixIds = features[index]!.prefixIds;
    let score = 0;
    let decay = 1;
    for (let level = 0; level < prefixIds.length; level++) {
      score += Math.log2(counts[prefixIds[level]!]!) * decay;
      decay *= pathDecay;
    }
    scores[index] = score / (1 + 0.1 * prefixIds.length);
  }
  return scores;
}

function scaledToBest(scores: Float64Array): Float64Array {
  let max = 0;
  for (let index = 0; index < scores.length; index++) if (scores[index]! > max) max = scores[index]!;
  if (max > 0) for (let index = 0; index < scores.length; index++) scores[index]! /= max;
  return scores;
}

// Vectors for bench:kb's scale pass, made from a seed so the same index always gives the same vector
// (nothing is kept in memory: 100,000 × 768 floats would be 300 MB).
//
// - clustered: like a real model's embeddings of a real corpus. Every vector shares one direction
//   (a model's vectors are anisotropic: two unrelated texts still score ~0.2), leans towards one of
//   100 topics and one of 3,000 sub-topics inside it, plus noise as large as the rest. A query is a
//   document's vector plus as much noise again: its document comes first at ~0.7, the 30th
//   neighbour at ~0.37, the 1,000th at ~0.30 (printed by the bench) — a narrow band, so picking
//   the top 30 is not easy.
// - random: independent Gaussian vectors, the worst case for any approximate search (the top 30
//   of 100,000 lie within a hair of each other).

const shares = { common: 0.8, topic: 0.5, subtopic: 0.35, noise: 1.0, queryNoise: 1.0 };

/** A seeded generator of uniform [0, 1) numbers (LCG) and Gaussians (Box-Muller). */
export function createRandom(seed) {
  let state = seed >>> 0;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const gaussian = () => {
    let u = 0;
    while (u === 0) u = uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
  };
  return { uniform, gaussian };
}

function normalise(vector) {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const scale = 1 / Math.sqrt(sum || 1);
  for (let index = 0; index < vector.length; index++) vector[index] *= scale;
  return vector;
}

function randomUnit(random, dimensions) {
  return normalise(Float32Array.from({ length: dimensions }, random.gaussian));
}

/**
 * `vectorOf(index)`: the index-th document's vector; `queryNear(index, seed)`: a query about that
 * document. kind: 'clustered' | 'random'.
 */
export function createSyntheticVectors({ kind, dimensions, seed = 1 }) {
  const random = createRandom(seed);
  const common = randomUnit(random, dimensions);
  const topics = Array.from({ length: 100 }, () => randomUnit(random, dimensions));
  const subtopics = Array.from({ length: 3000 }, () => ({
    topic: topics[Math.floor(random.uniform() * topics.length)],
    direction: randomUnit(random, dimensions),
  }));
  const noiseScale = shares.noise / Math.sqrt(dimensions);
  const vectorOf = (index) => {
    const own = createRandom(seed * 7919 + index * 104729 + 1);
    const vector = new Float32Array(dimensions);
    if (kind === 'random') return normalise(vector.map(own.gaussian));
    const subtopic = subtopics[Math.floor(own.uniform() * subtopics.length)];
    for (let dimension = 0; dimension < dimensions; dimension++) {
      vector[dimension] =
        shares.common * common[dimension] +
        shares.topic * subtopic.topic[dimension] +
        shares.subtopic * subtopic.direction[dimension] +
        noiseScale * own.gaussian();
    }
    return normalise(vector);
  };
  const queryNear = (index, querySeed) => {
    if (kind === 'random') return randomUnit(createRandom(querySeed * 31 + 17), dimensions);
    const noise = createRandom(querySeed * 31 + 17);
    const scale = shares.queryNoise / Math.sqrt(dimensions);
    return normalise(vectorOf(index).map((value) => value + scale * noise.gaussian()));
  };
  return { vectorOf, queryNear };
}

// Positions fit below this, next to a weight in one exact double.
const positionRange = 2 ** 24;

/**
 * Positions of the weights (integers, such as thousandths), highest first, ties in position
 * order. Each weight and its position are packed into one number and sorted without a comparator,
 * several times faster than calling one for ten thousand weights. Each loop has its own function:
 * optimised on the fly (OSR) in the middle of a longer one, V8 kept deoptimising the code after it.
 */
export function orderByWeight(weights: Float64Array): Uint32Array {
  const packable = weights.length < positionRange && weights.every((weight) => Math.abs(weight) < 2 ** 28);
  if (!packable) return orderByComparator(weights);
  const keys = packedKeys(weights);
  keys.sort();
  return positionsOf(keys);
}

function packedKeys(weights: Float64Array): Float64Array {
  const keys = new Float64Array(weights.length);
  for (let index = 0; index < keys.length; index++)
    keys[index] = weights[index]! * positionRange + (positionRange - 1 - index);
  return keys;
}

/** Positions from keys sorted in ascending order, so read from the end. */
function positionsOf(keys: Float64Array): Uint32Array {
  const order = new Uint32Array(keys.length);
  for (let rank = 0; rank < order.length; rank++) {
    const key = keys[keys.length - 1 - rank]!;
    order[rank] = positionRange - 1 - (key - Math.floor(key / positionRange) * positionRange);
  }
  return order;
}

function orderByComparator(weights: Float64Array): Uint32Array {
  const order = new Uint32Array(weights.length);
  for (let index = 0; index < order.length; index++) order[index] = index;
  return order.sort((a, b) => weights[b]! - weights[a]! || a - b);
}

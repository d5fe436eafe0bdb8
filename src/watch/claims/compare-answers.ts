import type { CitedAnswer, ClaimChange, CompareOptions } from './claim-types.js';
import { splitClaims } from './split-claims.js';

/**
 * The claims of `after` matched with those of `before`, each `unchanged`, `changed`, `new` or
 * `removed` (removed ones last). PROVISIONAL: exact text match only; the matcher by meaning
 * replaces it.
 */
export async function compareAnswers(
  before: CitedAnswer,
  after: CitedAnswer,
  _options: CompareOptions = {},
): Promise<ClaimChange[]> {
  const old = splitClaims(before);
  const fresh = splitClaims(after);
  const left = new Map(old.map((claim) => [claim.text.toLowerCase(), claim]));
  const changes: ClaimChange[] = [];
  for (const claim of fresh) {
    const match = left.get(claim.text.toLowerCase());
    if (match) {
      left.delete(claim.text.toLowerCase());
      changes.push({ kind: 'unchanged', before: match, after: claim });
    } else changes.push({ kind: 'new', after: claim });
  }
  for (const claim of left.values()) changes.push({ kind: 'removed', before: claim });
  return changes;
}

/** "2 changed, 1 new, 1 removed" (or "no change"). */
export function summarizeChanges(changes: readonly ClaimChange[]): string {
  const count = (kind: ClaimChange['kind']) => changes.filter((change) => change.kind === kind).length;
  const parts = (['changed', 'new', 'removed'] as const)
    .map((kind) => [count(kind), kind] as const)
    .filter(([n]) => n > 0)
    .map(([n, kind]) => `${n} ${kind}`);
  return parts.length > 0 ? parts.join(', ') : 'no change';
}

import { cosineSimilarity } from '../../retrieval/cosine-similarity.js';
import { type ClaimFacts, claimFacts, type Fact } from './claim-facts.js';
import type {
  AnswerClaim,
  CitedAnswer,
  ClaimChange,
  ClaimDifference,
  CompareOptions,
} from './claim-types.js';
import { splitClaims } from './split-claims.js';

/** A pair at least this alike is one claim (then the same or changed, by its values). */
const sameClaim = 0.5;
/** Below this a pair is two claims; between the two it is ambiguous (the judge, else shared values). */
const otherClaim = 0.3;
/** A claim left unmatched whose words and values are this much inside the other side's claims was merged or split, not added or dropped. */
const covered = 0.75;

interface Side {
  claim: AnswerClaim;
  facts: ClaimFacts;
  vector?: ArrayLike<number>;
}

/**
 * The claims of `after` matched with those of `before` by meaning, each `unchanged`, `changed`
 * (with the numbers, dates, names or status words that differ), `new` or `removed` (removed ones
 * last). The same facts in other words, in another order, or merged into one sentence are no
 * change. Pairs are matched by their content words and values (and the embeddings when given);
 * the judge is asked only about pairs that stay ambiguous.
 */
export async function compareAnswers(
  before: CitedAnswer,
  after: CitedAnswer,
  options: CompareOptions = {},
): Promise<ClaimChange[]> {
  const old = sidesOf(splitClaims(before));
  const fresh = sidesOf(splitClaims(after));
  if (options.embed && old.length > 0 && fresh.length > 0)
    await embedSides([...old, ...fresh], options.embed);
  const pairs: Array<{ from: number; to: number; score: number }> = [];
  for (let from = 0; from < old.length; from++)
    for (let to = 0; to < fresh.length; to++) {
      const score = likeness(old[from]!, fresh[to]!);
      if (score >= otherClaim) pairs.push({ from, to, score });
    }
  pairs.sort((a, b) => b.score - a.score);
  const matchOf = new Map<number, { from: number; verdict?: 'same' | 'changed' }>();
  const taken = new Set<number>();
  for (const { from, to, score } of pairs) {
    if (taken.has(from) || matchOf.has(to)) continue;
    let verdict: 'same' | 'changed' | undefined;
    if (score < sameClaim) {
      const judged = await judgePair(options, old[from]!.claim.text, fresh[to]!.claim.text);
      if (judged === 'different') continue;
      if (judged) verdict = judged;
      else if (!sharesValue(old[from]!.facts, fresh[to]!.facts)) continue;
    }
    taken.add(from);
    matchOf.set(to, { from, verdict });
  }
  const changes: ClaimChange[] = fresh.map((side, to) => {
    const match = matchOf.get(to);
    if (!match) {
      const holder = coveringClaim(side, old);
      return holder
        ? { kind: 'unchanged', before: holder.claim, after: side.claim }
        : { kind: 'new', after: side.claim };
    }
    const previous = old[match.from]!;
    const differences = differencesOf(previous.facts, side.facts);
    const changed = match.verdict ? match.verdict === 'changed' : differences.length > 0;
    return changed
      ? { kind: 'changed', before: previous.claim, after: side.claim, differences }
      : { kind: 'unchanged', before: previous.claim, after: side.claim };
  });
  for (let from = 0; from < old.length; from++) {
    if (taken.has(from) || coveringClaim(old[from]!, fresh)) continue;
    changes.push({ kind: 'removed', before: old[from]!.claim });
  }
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

/** The judge's verdict on an ambiguous pair; undefined without a judge or when it fails (the values decide then). */
async function judgePair(
  options: CompareOptions,
  before: string,
  after: string,
): Promise<'same' | 'changed' | 'different' | undefined> {
  if (!options.judge) return undefined;
  options.signal?.throwIfAborted();
  try {
    return await options.judge(before, after);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return undefined;
  }
}

function sidesOf(claims: AnswerClaim[]): Side[] {
  return claims.map((claim) => ({ claim, facts: claimFacts(claim.text) }));
}

async function embedSides(sides: Side[], embed: NonNullable<CompareOptions['embed']>): Promise<void> {
  try {
    const vectors = await embed(sides.map((side) => side.claim.text));
    sides.forEach((side, index) => {
      side.vector = vectors[index];
    });
  } catch {
    // Words and values alone still match claims; an embedding service that fails costs accuracy only.
  }
}

/**
 * How alike two claims are in what they are about, 0..1: the overlap of their content words and
 * names (Dice), raised when they share values, and by the embeddings' cosine when there are any.
 */
function likeness(a: Side, b: Side): number {
  // Word for word the same but for its values ("It opened on 3 May 1998." / "... 9 June 1998."):
  // one claim, however few content words it has.
  if (a.facts.template === b.facts.template && a.facts.template.split(' ').length >= 3) return 1;
  const words = dice(a.facts.terms, b.facts.terms);
  const values = valueOverlap(a.facts, b.facts);
  let score = words + 0.35 * values;
  if (a.vector && b.vector) score = Math.max(score, (cosineSimilarity(a.vector, b.vector) - 0.55) / 0.35);
  return Math.min(1, score);
}

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/** The share of values (numbers and dates) the two have in common, of the fewer of them. */
function valueOverlap(a: ClaimFacts, b: ClaimFacts): number {
  const left = [...a.numbers, ...a.dates];
  const right = [...b.numbers, ...b.dates];
  if (left.length === 0 || right.length === 0) return 0;
  const shared = left.filter((x) => right.some((y) => sameValue(x, y))).length;
  return shared / Math.min(left.length, right.length);
}

/** One value: equal, and counting the same thing when both say what they count ("500 employees" is not "500 stores"). */
function sameValue(x: Fact, y: Fact): boolean {
  return x.value === y.value && (x.unit === undefined || y.unit === undefined || x.unit === y.unit);
}

function sharesValue(a: ClaimFacts, b: ClaimFacts): boolean {
  if (valueOverlap(a, b) > 0) return true;
  const names = new Set(a.names.map(({ value }) => value));
  return b.names.some(({ value }) => names.has(value));
}

/**
 * What differs between two claims about the same thing. A kind of value differs only when both
 * state it and the values are not the same: a sentence that leaves a value out says less, not
 * something else. A date differs only if neither is a coarser form of the other ("March 2026",
 * "2026-03-12"). Names differ only where one replaces another.
 */
function differencesOf(a: ClaimFacts, b: ClaimFacts): ClaimDifference[] {
  const differences: ClaimDifference[] = [];
  const numbers = setDifference(a.numbers, b.numbers, (x, y) => x === y);
  if (numbers) differences.push({ kind: 'number', ...numbers });
  const dates = setDifference(a.dates, b.dates, (x, y) => x.startsWith(y) || y.startsWith(x));
  if (dates) differences.push({ kind: 'date', ...dates });
  const names = setDifference(a.names, b.names, sameName) ?? listDifference(a.names, b.names);
  if (names) differences.push({ kind: 'name', ...names });
  const status = statusDifference(a.status, b.status);
  if (status) differences.push({ kind: 'status', ...status });
  return differences;
}

function setDifference(
  a: Fact[],
  b: Fact[],
  same: (x: string, y: string) => boolean,
): { before: string[]; after: string[] } | undefined {
  if (a.length === 0 || b.length === 0) return undefined;
  const gone = a.filter((x) => !b.some((y) => same(x.value, y.value)));
  const added = b.filter((y) => !a.some((x) => same(x.value, y.value)));
  if (gone.length === 0 || added.length === 0) return undefined;
  return { before: unique(gone), after: unique(added) };
}

/**
 * A list of names that grew or shrank ("PostgreSQL, MySQL and SQLite" → "..., SQLite and MariaDB"):
 * both name two or more, and one holds all of the other's and more.
 */
function listDifference(a: Fact[], b: Fact[]): { before: string[]; after: string[] } | undefined {
  if (a.length < 2 || b.length < 2) return undefined;
  const gone = a.filter((x) => !b.some((y) => sameName(x.value, y.value)));
  const added = b.filter((y) => !a.some((x) => sameName(x.value, y.value)));
  if (gone.length + added.length === 0 || (gone.length > 0 && added.length > 0)) return undefined;
  return { before: unique(a), after: unique(b) };
}

/** "Webb" is "Marcus Webb"; "Microsoft" is not "Satya Nadella". */
function sameName(x: string, y: string): boolean {
  if (x === y) return true;
  const xs = x.split(' ');
  const ys = y.split(' ');
  return xs.some((word) => ys.includes(word));
}

/** Status differs when the words do, or one side is negated and the other not. */
function statusDifference(a: Fact[], b: Fact[]): { before: string[]; after: string[] } | undefined {
  if (a.length === 0 && b.length === 0) return undefined;
  const negated = (facts: Fact[]) =>
    facts.some(({ value }) => value === 'not' || value.startsWith('not ') || value === 'no longer');
  if (negated(a) !== negated(b)) return { before: unique(a), after: unique(b) };
  return setDifference(a, b, (x, y) => x === y);
}

function unique(facts: Fact[]): string[] {
  return [...new Set(facts.map(({ written }) => written))];
}

/**
 * The claim on the other side that holds this one's content when it was merged into a longer
 * sentence or split off one: most of its words, and every value it states, are there.
 */
function coveringClaim(side: Side, others: Side[]): Side | undefined {
  const values = [...side.facts.numbers, ...side.facts.dates].map(({ value }) => value);
  const terms = side.facts.terms;
  if (terms.size === 0) return undefined;
  // Split sentences: the claim may be covered by two others together.
  const union = new Set<string>();
  const unionValues = new Set<string>();
  let best: Side | undefined;
  let bestShare = 0;
  for (const other of others) {
    const share = containment(terms, other.facts.terms);
    const hasValues = values.every((value) =>
      [...other.facts.numbers, ...other.facts.dates].some((fact) => fact.value === value),
    );
    if (share >= covered && hasValues && share > bestShare) {
      best = other;
      bestShare = share;
    }
    if (share >= 0.3) {
      for (const term of other.facts.terms) union.add(term);
      for (const fact of [...other.facts.numbers, ...other.facts.dates]) unionValues.add(fact.value);
    }
  }
  if (best) return best;
  const together = containment(terms, union) >= covered && values.every((value) => unionValues.has(value));
  return together ? others.find((other) => containment(terms, other.facts.terms) >= 0.3) : undefined;
}

function containment(terms: ReadonlySet<string>, other: ReadonlySet<string>): number {
  let inside = 0;
  for (const term of terms) if (other.has(term)) inside++;
  return inside / terms.size;
}

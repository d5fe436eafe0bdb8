/**
 * `npm run bench:watch`: the watch's claim matcher on answer pairs written by hand
 * (bench/data/watch-cases.json: the same facts reworded, reordered, merged or split; one number,
 * date, name or status changed; a claim added or dropped). For the dev and held-out cases apart,
 * it prints the precision and recall of the changes reported (all kinds, and `changed` alone) and
 * how many no-change pairs raised a false alarm, for our matcher and two baselines in the same run:
 * an exact text diff, and matching by word overlap alone (no values, no status words).
 */
import { readFileSync } from 'node:fs';
import type { Reference } from '../src/events/deep-search-result.js';
import { termsOf } from '../src/retrieval/tokenize.js';
import type { CitedAnswer, ClaimChange } from '../src/watch/claims/claim-types.js';
import { compareAnswers } from '../src/watch/claims/compare-answers.js';
import { splitClaims } from '../src/watch/claims/split-claims.js';

interface Expected {
  kind: 'new' | 'removed' | 'changed';
  before?: string;
  after?: string;
}
interface Case {
  id: string;
  set: 'dev' | 'held-out';
  before: Array<[string, string]>;
  after: Array<[string, string]>;
  expect: Expected[];
}
type Matcher = (before: CitedAnswer, after: CitedAnswer) => Promise<ClaimChange[]>;

const { cases } = JSON.parse(readFileSync(new URL('data/watch-cases.json', import.meta.url), 'utf8')) as {
  cases: Case[];
};

function answerOf(sentences: Array<[string, string]>): CitedAnswer {
  const urls = [...new Set(sentences.map(([, url]) => url))];
  const references: Reference[] = urls.map((url, index) => ({
    index: index + 1,
    url,
    title: url,
    quote: sentences.find(([, u]) => u === url)![0],
    quoteKind: 'exact',
  }));
  const answer = sentences
    .map(([text, url]) => text.replace(/([.!?])$/, `[^${urls.indexOf(url) + 1}]$1`))
    .join(' ');
  return { answer, references };
}

/** Baseline: a claim is unchanged only if its text is the same; the rest are new or removed. */
const exactDiff: Matcher = async (before, after) => {
  const old = new Set(splitClaims(before).map((claim) => claim.text));
  const fresh = splitClaims(after);
  const freshTexts = new Set(fresh.map((claim) => claim.text));
  return [
    ...fresh.map(
      (claim): ClaimChange => (old.has(claim.text) ? { kind: 'unchanged' } : { kind: 'new', after: claim }),
    ),
    ...splitClaims(before)
      .filter((claim) => !freshTexts.has(claim.text))
      .map((claim): ClaimChange => ({ kind: 'removed', before: claim })),
  ];
};

/** Baseline: pairs by word overlap (Dice ≥ 0.5, best first); a paired claim whose words differ at all is changed. */
const wordOverlap: Matcher = async (before, after) => {
  const old = splitClaims(before).map((claim) => ({ claim, terms: new Set(termsOf(claim.text)) }));
  const fresh = splitClaims(after).map((claim) => ({ claim, terms: new Set(termsOf(claim.text)) }));
  const pairs = old.flatMap((a, from) =>
    fresh.map((b, to) => {
      const shared = [...a.terms].filter((term) => b.terms.has(term)).length;
      return { from, to, score: (2 * shared) / (a.terms.size + b.terms.size) };
    }),
  );
  pairs.sort((x, y) => y.score - x.score);
  const taken = new Set<number>();
  const matched = new Map<number, number>();
  for (const { from, to, score } of pairs)
    if (score >= 0.5 && !taken.has(from) && !matched.has(to)) {
      taken.add(from);
      matched.set(to, from);
    }
  const changes: ClaimChange[] = fresh.map(({ claim, terms }, to) => {
    const from = matched.get(to);
    if (from === undefined) return { kind: 'new', after: claim };
    const same =
      [...terms].every((term) => old[from]!.terms.has(term)) && terms.size === old[from]!.terms.size;
    return same ? { kind: 'unchanged' } : { kind: 'changed', before: old[from]!.claim, after: claim };
  });
  old.forEach(({ claim }, from) => {
    if (!taken.has(from)) changes.push({ kind: 'removed', before: claim });
  });
  return changes;
};

function fits(change: ClaimChange, expected: Expected): boolean {
  return (
    change.kind === expected.kind &&
    (expected.before === undefined || (change.before?.text ?? '').includes(expected.before)) &&
    (expected.after === undefined || (change.after?.text ?? '').includes(expected.after))
  );
}

interface Tally {
  reported: number;
  right: number;
  expected: number;
  found: number;
  changedReported: number;
  changedRight: number;
  changedExpected: number;
  changedFound: number;
  calmPairs: number;
  falseAlarms: number;
}

async function score(matcher: Matcher, set: Case[], log?: (line: string) => void): Promise<Tally> {
  const tally: Tally = {
    reported: 0,
    right: 0,
    expected: 0,
    found: 0,
    changedReported: 0,
    changedRight: 0,
    changedExpected: 0,
    changedFound: 0,
    calmPairs: 0,
    falseAlarms: 0,
  };
  for (const item of set) {
    const changes = (await matcher(answerOf(item.before), answerOf(item.after))).filter(
      (change) => change.kind !== 'unchanged',
    );
    const wrong = changes.filter((change) => !item.expect.some((expected) => fits(change, expected)));
    const missed = item.expect.filter((expected) => !changes.some((change) => fits(change, expected)));
    tally.reported += changes.length;
    tally.right += changes.length - wrong.length;
    tally.expected += item.expect.length;
    tally.found += item.expect.length - missed.length;
    const changed = changes.filter((change) => change.kind === 'changed');
    const changedExpected = item.expect.filter((expected) => expected.kind === 'changed');
    tally.changedReported += changed.length;
    tally.changedRight += changed.filter((change) => changedExpected.some((e) => fits(change, e))).length;
    tally.changedExpected += changedExpected.length;
    tally.changedFound += changedExpected.filter((e) => changed.some((change) => fits(change, e))).length;
    if (item.expect.length === 0) {
      tally.calmPairs++;
      if (changes.length > 0) tally.falseAlarms++;
    }
    if (log && (wrong.length > 0 || missed.length > 0))
      log(
        `  ${item.id}: wrong ${JSON.stringify(wrong.map((c) => [c.kind, c.before?.text, c.after?.text]))} missed ${JSON.stringify(missed)}`,
      );
  }
  return tally;
}

const ratio = (a: number, b: number) => (b === 0 ? '   -' : (a / b).toFixed(2));
const verbose = process.argv.includes('--verbose');
console.log('set       matcher        changes P / R   "changed" P / R   false alarms on no-change pairs');
for (const set of ['dev', 'held-out'] as const) {
  const chosen = cases.filter((item) => item.set === set);
  for (const [name, matcher] of [
    ['exact text', exactDiff],
    ['word overlap', wordOverlap],
    ['ours', compareAnswers],
  ] as const) {
    const lines: string[] = [];
    const t = await score(
      matcher,
      chosen,
      name === 'ours' && verbose ? (line) => lines.push(line) : undefined,
    );
    console.log(
      `${set.padEnd(9)} ${name.padEnd(14)} ${ratio(t.right, t.reported)} / ${ratio(t.found, t.expected)}       ${ratio(t.changedRight, t.changedReported)} / ${ratio(t.changedFound, t.changedExpected)}       ${t.falseAlarms} of ${t.calmPairs}`,
    );
    for (const line of lines) console.log(line);
  }
}

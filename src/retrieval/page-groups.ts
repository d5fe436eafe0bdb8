import { foldText } from './match-text.js';
import { estimateSimilarity, exactOverlap, fingerprintText, type TextFingerprint } from './minhash.js';
import { hostOf, urlKey } from './normalize-url.js';
import { parseDate } from './parse-date.js';

/** What grouping needs of a page read. */
export interface GroupablePage {
  url: string;
  text: string;
  /** The page's rel=canonical URL, when it gives one. */
  canonicalUrl?: string;
  publishedAt?: string;
}

/** Pages carrying one story: the original to cite and the copies ("also at N sites"). */
export interface PageGroup<P extends GroupablePage> {
  original: P;
  /** The other pages of the group, in the order they were read. */
  copies: P[];
}

export interface PageGrouping<P extends GroupablePage> {
  groups: Array<PageGroup<P>>;
  /** The group of a page read (by URL key); undefined for a URL not among the pages. */
  groupOf(url: string): PageGroup<P> | undefined;
  /**
   * One key per independent source: the URL key of its group's original, or the URL's own key when
   * it is not a page read (a search hit), or the URL itself when it has no key.
   */
  sourceKeyOf(url: string): string;
}

/** Signatures agreeing on this share are compared exactly; well under the threshold, since it is an estimate. */
const candidateSimilarity = 0.3;
/** Exact Jaccard at or above this: the same text with small edits. */
const sameJaccard = 0.8;
/**
 * Or the shorter text's shingles found in the longer one at or above this, the shorter being at
 * least `minSizeRatio` of the longer: a copy with its own header, footer or a cut end. The size
 * floor keeps a page that quotes one paragraph of a story from being that story.
 */
const sameContainment = 0.8;
const minSizeRatio = 0.5;
/** Fewer shingles than this (a stub, a caption): too little text to call two pages one story. */
const minShingles = 12;

/**
 * Groups pages whose main text is (nearly) the same (a syndicated wire story, a mirror, a scraped
 * copy) or that name one another as canonical (AMP and print versions). Fingerprints are kept per
 * page object, so a run regroups its pages as it reads more without hashing a page twice.
 */
export class PageGrouper<P extends GroupablePage> {
  private readonly fingerprints = new WeakMap<P, TextFingerprint>();

  fingerprintOf(page: P): TextFingerprint {
    let fingerprint = this.fingerprints.get(page);
    if (!fingerprint) {
      fingerprint = fingerprintText(page.text);
      this.fingerprints.set(page, fingerprint);
    }
    return fingerprint;
  }

  /** The groups of `pages` (in reading order): every page is in exactly one group, most alone. */
  group(pages: readonly P[]): PageGrouping<P> {
    const { find, join } = unionFind(pages.length);
    this.joinByCanonical(pages, join);
    this.joinByText(pages, join, find);
    const members = new Map<number, number[]>();
    pages.forEach((_, index) => {
      const root = find(index);
      members.set(root, [...(members.get(root) ?? []), index]);
    });
    const groups = [...members.values()].map((indexes) => toGroup(indexes.map((index) => pages[index]!)));
    return indexGrouping(groups);
  }

  private joinByCanonical(pages: readonly P[], join: (a: number, b: number) => void): void {
    const byKey = new Map<string, number>();
    pages.forEach((page, index) => {
      const key = urlKey(page.url);
      if (key && !byKey.has(key)) byKey.set(key, index);
    });
    const byCanonical = new Map<string, number>();
    pages.forEach((page, index) => {
      const canonical = page.canonicalUrl ? urlKey(page.canonicalUrl) : undefined;
      if (!canonical || canonical === urlKey(page.url)) return;
      const target = byKey.get(canonical) ?? byCanonical.get(canonical);
      if (target !== undefined) join(index, target);
      else byCanonical.set(canonical, index);
    });
  }

  private joinByText(
    pages: readonly P[],
    join: (a: number, b: number) => void,
    find: (index: number) => number,
  ): void {
    const prints = pages.map((page) => this.fingerprintOf(page));
    for (let a = 0; a < pages.length; a++) {
      if (prints[a]!.shingles.length < minShingles) continue;
      for (let b = a + 1; b < pages.length; b++) {
        if (prints[b]!.shingles.length < minShingles || find(a) === find(b)) continue;
        if (estimateSimilarity(prints[a]!, prints[b]!) < candidateSimilarity) continue;
        if (isSameText(prints[a]!, prints[b]!)) join(a, b);
      }
    }
  }
}

/** The exact test on a candidate pair (see the thresholds above). */
export function isSameText(a: TextFingerprint, b: TextFingerprint): boolean {
  const overlap = exactOverlap(a, b);
  return (
    overlap.jaccard >= sameJaccard ||
    (overlap.containment >= sameContainment && overlap.sizeRatio >= minSizeRatio)
  );
}

/**
 * The original of a group: the page the others name as canonical, else the earliest dated, else
 * the first read.
 */
function toGroup<P extends GroupablePage>(pages: P[]): PageGroup<P> {
  if (pages.length === 1) return { original: pages[0]!, copies: [] };
  const canonicalKeys = new Set(
    pages.flatMap((page) => (page.canonicalUrl ? [urlKey(page.canonicalUrl)] : [])),
  );
  const named = pages.find((page) => canonicalKeys.has(urlKey(page.url)));
  const original = named ?? earliestDated(pages) ?? pages[0]!;
  return { original, copies: pages.filter((page) => page !== original) };
}

function earliestDated<P extends GroupablePage>(pages: P[]): P | undefined {
  let best: P | undefined;
  let bestTime = Number.POSITIVE_INFINITY;
  for (const page of pages) {
    const time = page.publishedAt ? parseDate(page.publishedAt) : Number.NaN;
    if (Number.isFinite(time) && time < bestTime) {
      best = page;
      bestTime = time;
    }
  }
  return best;
}

function indexGrouping<P extends GroupablePage>(groups: Array<PageGroup<P>>): PageGrouping<P> {
  const byKey = new Map<string, PageGroup<P>>();
  for (const group of groups)
    for (const page of [group.original, ...group.copies]) {
      const key = urlKey(page.url);
      if (key && !byKey.has(key)) byKey.set(key, group);
    }
  const groupOf = (url: string) => {
    const key = urlKey(url);
    return key ? byKey.get(key) : undefined;
  };
  return {
    groups,
    groupOf,
    sourceKeyOf: (url) => {
      const group = groupOf(url);
      return (group ? urlKey(group.original.url) : urlKey(url)) ?? url;
    },
  };
}

/** How many independent sources the URLs are: copies of one story count once. */
export function countIndependentSources<P extends GroupablePage>(
  urls: Iterable<string>,
  grouping: PageGrouping<P>,
): number {
  const keys = new Set<string>();
  for (const url of urls) keys.add(grouping.sourceKeyOf(url));
  return keys.size;
}

/**
 * "also at 2 sites: b.example, c.example" for a source's copies (hosts once each, the first few),
 * or '' when it has none.
 */
export function describeAlsoAt(urls: readonly string[] | undefined, shown = 3): string {
  if (!urls?.length) return '';
  const hosts = [...new Set(urls.map((url) => hostOf(url) || url))];
  const more = hosts.length > shown ? `, +${hosts.length - shown}` : '';
  return `${alsoAtPhrase(urls.length)}: ${hosts.slice(0, shown).join(', ')}${more}`;
}

/** "also at 1 site", "also at 12 sites". */
export function alsoAtPhrase(count: number): string {
  return `also at ${count} site${count === 1 ? '' : 's'}`;
}

/**
 * Quotes as independent evidence: one per story and wording (the same sentence on three copies of
 * a wire story is one, kept at the group's original when it is among them), and how many
 * independent sources they come from.
 */
export function quotesByStory<Q extends { url: string; quote: string }, P extends GroupablePage>(
  quotes: readonly Q[],
  grouping: PageGrouping<P>,
): { sources: number; quotes: Q[] } {
  const kept = new Map<string, Q>();
  const stories = new Set<string>();
  for (const quote of quotes) {
    const story = grouping.sourceKeyOf(quote.url);
    stories.add(story);
    const key = `${story}|${foldText(quote.quote).folded}`;
    const isOriginal = grouping.groupOf(quote.url)?.original.url === quote.url;
    if (!kept.has(key) || isOriginal) kept.set(key, quote);
  }
  return { sources: stories.size, quotes: [...kept.values()] };
}

/** "1 independent source", "3 independent sources". */
export function independentSourcesPhrase(count: number): string {
  return `${count} independent source${count === 1 ? '' : 's'}`;
}

/**
 * How many stories cited references are, from the references alone (a finished report, a stored
 * result): references share a story when they name the same page or one lists the other's page
 * among its copies (`alsoAt`).
 */
export function countCitedStories(
  references: ReadonlyArray<{ url: string; alsoAt?: readonly string[] }>,
): number {
  const storyOf = new Map<string, number>();
  const { find, join } = unionFind(references.length);
  references.forEach((reference, index) => {
    for (const url of [reference.url, ...(reference.alsoAt ?? [])]) {
      const key = urlKey(url) ?? url;
      const known = storyOf.get(key);
      if (known === undefined) storyOf.set(key, index);
      else join(index, known);
    }
  });
  return new Set(references.map((_, index) => find(index))).size;
}

/** Disjoint sets of 0..size-1; a set's root is its lowest member (the first read). */
function unionFind(size: number) {
  const parent = Array.from({ length: size }, (_, index) => index);
  const find = (index: number): number => {
    while (parent[index] !== index) {
      parent[index] = parent[parent[index]!]!;
      index = parent[index]!;
    }
    return index;
  };
  const join = (a: number, b: number) => {
    const rootA = find(a);
    const rootB = find(b);
    if (rootA !== rootB) parent[Math.max(rootA, rootB)] = Math.min(rootA, rootB);
  };
  return { find, join };
}

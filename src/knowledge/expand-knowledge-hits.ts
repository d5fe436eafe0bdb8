import { namesIn } from '../retrieval/entity-expansion.js';
import { expandHops, type HopSource } from '../retrieval/hop-expansion.js';
import { termsOf, tokenize } from '../retrieval/tokenize.js';
import type { StoredChunk } from './knowledge-records.js';
import type { KnowledgeStore } from './knowledge-store.js';
import type { HitExplanation } from './search-knowledge.js';

/** Reciprocal-rank fusion's constant, for the fused lists and the expansion's chunks alike. */
export const rrfK = 60;
// How many fused hits seed the expansion, and how many chunks each entity may add.
const seedCount = 3;
const perEntity = 2;
const keptSeeds = 2;
// Expansion (tuned on HotpotQA questions 1–50 only, see bench:kb): a sentence naming an entity
// multiplies its weight by 1 + contextWeight × the share of question terms in it; an entity's
// chunks enter the fusion at expansionDiscount of a fused list's reciprocal rank.
const contextWeight = 30;
const maxEntities = 8;
const expansionDiscount = 0.8;
const maxEntityShare = 0.05;
const minEntityRows = 20;
// Places in the first ten kept for the best chunk reached through a top chunk's entity.
const reservedSlots = 1;

/**
 * Graph-aware expansion (hop-expansion.ts, the same search the page selector runs): the three best
 * fused chunks are followed together, and their names (weighted by how many of the question's words
 * share a sentence with them: the entity the question asks about sits next to its words, "…
 * portrayed Corliss Archer … Shirley Temple") trigger phrase searches; so do the names the
 * question itself holds (a comparison names two things; BM25 may rank only one of them high).
 * Each name's best chunks join the fusion by reciprocal rank, discounted by the name's weight
 * and rarity, so a generic name ("United States") moves little; the two best fused chunks keep
 * their places.
 */
export function expandKnowledgeHits(input: {
  store: KnowledgeStore;
  query: string;
  collection?: string;
  ranked: number[];
  limit: number;
  chunks: Map<number, StoredChunk>;
  explanations: Map<number, HitExplanation>;
  entities: string[];
}): number[] {
  const { ranked, explanations } = input;
  if (ranked.length === 0) return ranked;
  const source = knowledgeHopSource(input);
  const hopGains = new Map<number, number>(); // chunk → what the top chunks' entities added to it
  const credit = (id: number, gain: number, entity: string, rank: number, from: number) => {
    const entry = explanations.get(id) ?? { fused: 0 };
    entry.fused += gain;
    entry.expansion ??= { entity, rank: rank + 1, fromChunk: from };
    explanations.set(id, entry);
  };
  searchQuestionNames({ ...input, source, credit });
  // One round over the three best chunks together, in the fused (or reranked) order: a base's best
  // chunks come from as many documents, and a comparison needs each of them followed.
  const hops = expandHops({
    question: input.query,
    scores: new Map(ranked.map((id, index) => [id, ranked.length - index])),
    source,
    rounds: 1,
    width: seedCount,
    namesPerRound: maxEntities,
    contextWeight,
    numbers: false,
    linksPerName: perEntity,
    raise(link) {
      const gain =
        (expansionDiscount * link.name.weight * source.rarity(link.name.text)) /
        (rrfK + link.rank + 1 + link.fromPosition);
      credit(link.id, gain, link.name.text, link.rank, link.from);
      hopGains.set(link.id, (hopGains.get(link.id) ?? 0) + gain);
      return link.current + gain;
    },
  });
  input.entities.push(...hops.entities);
  const head = ranked.slice(0, keptSeeds);
  const rest = [...new Set([...ranked, ...explanations.keys()])].filter((id) => !head.includes(id));
  rest.sort((a, b) => explanations.get(b)!.fused - explanations.get(a)!.fused);
  return reserveSlot([...head, ...rest], hopGains, head, input.limit);
}

/**
 * A second hop shares no word with the question, so its discounted reciprocal rank alone stays
 * below the tenth fused hit: the best of them is kept inside the first page (ten, or the limit).
 */
function reserveSlot(
  order: number[],
  hopGains: Map<number, number>,
  head: number[],
  limit: number,
): number[] {
  const window = Math.min(limit, 10);
  const late = [...hopGains.entries()]
    .filter(([id]) => !head.includes(id))
    .sort((a, b) => b[1] - a[1])
    .slice(0, reservedSlots)
    .map(([id]) => id)
    .filter((id) => order.indexOf(id) >= window);
  if (late.length === 0) return order;
  const kept = order.filter((id) => !late.includes(id));
  kept.splice(Math.max(keptSeeds, window - late.length), 0, ...late);
  return kept;
}

interface KnowledgeHopSource extends HopSource {
  chunk(id: number): StoredChunk;
  /** Whether any chunk holds the name (searched with linked() first). */
  holds(name: string): boolean;
  /** How rare a name is in the base, in (0, 1]: 1 for a name one chunk holds. */
  rarity(name: string): number;
}

/** The base as a hop source: a name leads to the chunks holding it as a phrase, by BM25. */
function knowledgeHopSource(input: {
  store: KnowledgeStore;
  collection?: string;
  chunks: Map<number, StoredChunk>;
}): KnowledgeHopSource {
  const { store, chunks } = input;
  const rarities = new Map<string, number>();
  const held = new Set<string>();
  const chunk = (id: number) => {
    if (!chunks.has(id)) for (const [key, loaded] of store.chunks([id])) chunks.set(key, loaded);
    return chunks.get(id)!;
  };
  return {
    chunk,
    text: (id) => chunk(id).text,
    names: (id) => analysedNames(chunk(id).analysis),
    exclude: (id) => [chunk(id).title],
    rarity: (name) => rarities.get(name) ?? 0,
    holds: (name) => held.has(name),
    linked(name) {
      const phrase = phraseQuery(name);
      if (!phrase) return [];
      const { rows: holding, of } = store.fullTextCount(phrase);
      if (holding > 0) held.add(name);
      // A name in more than one chunk in twenty of a large base is no lead (and finds anything).
      if (holding === 0 || holding > Math.max(minEntityRows, of * maxEntityShare)) return [];
      rarities.set(name, Math.log(1 + of / holding) / Math.log(1 + of));
      return store
        .fullText(phrase, { limit: perEntity + seedCount, collection: input.collection })
        .map((row) => ({ id: row.chunkId, score: row.score }));
    },
  };
}

/**
 * The names the question holds, searched the same way: a comparison names two things, and BM25
 * may rank only one of them high. Longest first; "Kiss and Tell" found means "Kiss" and "Tell"
 * are not searched.
 */
function searchQuestionNames(input: {
  query: string;
  ranked: number[];
  source: KnowledgeHopSource;
  entities: string[];
  credit: (id: number, gain: number, entity: string, rank: number, from: number) => void;
}): void {
  const seeds = input.ranked.slice(0, seedCount);
  const taken = new Set(seeds);
  const held: string[] = [];
  for (const name of questionNames(input.query, seeds.map(input.source.chunk))) {
    if (held.some((whole) => whole.includes(name.text))) continue;
    const links = input.source.linked(name.text, name.text);
    if (input.source.holds(name.text)) held.push(name.text);
    let kept = 0;
    for (const [rank, link] of links.entries()) {
      if (kept >= perEntity || taken.has(link.id)) continue;
      kept++;
      const gain = (expansionDiscount * input.source.rarity(name.text)) / (rrfK + rank + 1);
      input.credit(link.id, gain, name.text, rank, input.ranked[0]!);
    }
    if (kept > 0) input.entities.push(name.text);
  }
}

/** The names the question holds that no seed is titled by, whole ("Kiss and Tell", not "Kiss"). */
function questionNames(
  query: string,
  seeds: readonly StoredChunk[],
): Array<{ text: string; weight: number; fromQuestion: boolean }> {
  const titles = new Set(seeds.map((seed) => termsKey(seed.title)));
  // Longest first: a part is skipped when a longer name holding it was found (see expand).
  return [...new Set(namesIn(query, { withoutOpener: true, numbers: false }))]
    .filter((name) => !titles.has(termsKey(name)))
    .sort((a, b) => b.length - a.length)
    .map((text) => ({ text, weight: 1, fromQuestion: true }));
}

function termsKey(name: string): string {
  return termsOf(name).join(' ');
}

/** The entity names of an analysed chunk (--analyze), else undefined: names are then found in the text. */
function analysedNames(analysis: string | null): string[] | undefined {
  if (!analysis) return undefined;
  try {
    const parsed = JSON.parse(analysis) as { entities?: Array<{ name?: unknown }> };
    const names = (parsed.entities ?? []).flatMap((entity) =>
      typeof entity.name === 'string' ? [entity.name] : [],
    );
    return names.length > 0 ? names : undefined;
  } catch {
    return undefined;
  }
}

function phraseQuery(name: string): string {
  // Stopwords stay: "University of Oxford" is a phrase of three tokens in the index.
  const words = tokenize(name);
  return words.length > 0 ? `"${words.join(' ').replace(/"/g, '')}"` : '';
}

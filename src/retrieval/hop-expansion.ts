import { expansionEntities } from './entity-expansion.js';
import { termsOf } from './tokenize.js';

/** A passage a name leads to, with its score for the name's query (any scale, best first). */
export interface HopLink {
  id: number;
  score: number;
}

/** Where the passages are: one page's paragraphs, or the knowledge base's chunks. */
export interface HopSource {
  text(id: number): string;
  /** Names known for a passage (an LLM analysis), used instead of those found in its text. */
  names?(id: number): readonly string[] | undefined;
  /** Names not worth following from a passage (its own title). */
  exclude?(id: number): readonly string[];
  /**
   * Passages about `name` (holding all its words), best first for `query`: the name with the
   * question words that no followed passage holds yet, which say what is asked about the name.
   */
  linked(name: string, query: string): readonly HopLink[];
}

/** How a passage was reached: from which followed passage, through which name. */
export interface HopReach {
  from: number;
  entity: string;
  rank: number;
  gain: number;
}

export interface HopExpansionOptions {
  question: string;
  /** The passages' scores for the question (any scale, > 0 for a match); not modified. */
  scores: ReadonlyMap<number, number>;
  source: HopSource;
  /** Passages whose names are followed, best first by their current score. Default 3. */
  hops?: number;
  /** Names followed per passage. Default 4. */
  namesPerPassage?: number;
  /** Weight of the question's words beside a name (see expansionEntities). Default 30. */
  contextWeight?: number;
  /** Whether years and numbers count as names. Default true. */
  numbers?: boolean;
}

export interface HopExpansion {
  /** Scores in [0, 1]: the question's (scaled by the best), raised by the hops. */
  scores: Map<number, number>;
  reached: Map<number, HopReach>;
  /** The passages followed, in order. */
  followed: number[];
  /** Names that led somewhere, in the order followed. */
  entities: string[];
}

/**
 * Multi-hop retrieval without an LLM (seed 004's graph-aware expansion, the way HippoRAG and
 * IRCoT chain hops, with names instead of a model): the best passage for the question is
 * followed, its names (people, places, titles, years; those beside the question's words weigh
 * most) become queries, and a passage about such a name scores up to the followed passage's own
 * score, scaled by the name's weight and by how well the passage matches the question words still
 * unanswered. Then the next best passage, which may be one just reached (the third hop of a
 * three-hop question), is followed. The page selector and the knowledge base both call this.
 */
export function expandHops(options: HopExpansionOptions): HopExpansion {
  const { source } = options;
  let best = 0;
  for (const score of options.scores.values()) best = Math.max(best, score);
  const scores = new Map<number, number>();
  for (const [id, score] of options.scores) scores.set(id, best > 0 ? Math.max(0, score) / best : 0);
  const reached = new Map<number, HopReach>();
  const followed: number[] = [];
  const entities: string[] = [];
  const questionTerms = [...new Set(termsOf(options.question))];
  for (let hop = 0; hop < (options.hops ?? 3); hop++) {
    const from = nextToFollow(scores, followed);
    if (from === undefined) break;
    followed.push(from);
    const followedText = followed.map((id) => source.text(id).toLowerCase()).join('\n');
    const unanswered = questionTerms.filter((term) => !followedText.includes(term)).join(' ');
    const names = expansionEntities({
      query: options.question,
      texts: [source.text(from)],
      names: source.names ? [source.names(from)] : undefined,
      exclude: source.exclude?.(from),
      contextWeight: options.contextWeight ?? 30,
      numbers: options.numbers,
      max: options.namesPerPassage ?? 4,
    });
    for (const name of names) {
      const links = source
        .linked(name.text, `${name.text} ${unanswered}`)
        .filter((link) => !followed.includes(link.id));
      const top = links.reduce((max, link) => Math.max(max, link.score), 0);
      if (top <= 0) continue;
      entities.push(name.text);
      links.forEach((link, rank) => {
        const gain = scores.get(from)! * name.weight * (link.score / top);
        if (gain <= (scores.get(link.id) ?? 0)) return;
        scores.set(link.id, gain);
        reached.set(link.id, { from, entity: name.text, rank: rank + 1, gain });
      });
    }
  }
  return { scores, reached, followed, entities };
}

function nextToFollow(scores: ReadonlyMap<number, number>, followed: readonly number[]): number | undefined {
  let next: number | undefined;
  for (const [id, score] of scores) {
    if (score <= 0 || followed.includes(id)) continue;
    if (next === undefined || score > scores.get(next)! || (score === scores.get(next)! && id < next))
      next = id;
  }
  return next;
}

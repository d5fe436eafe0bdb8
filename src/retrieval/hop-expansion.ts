import { type ExpansionEntity, expansionEntities } from './entity-expansion.js';
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
  /**
   * Rounds of following. Each round follows the best passages not followed yet, by their current
   * score, so a passage reached in one round can be followed in the next (a third hop). Default 3.
   */
  rounds?: number;
  /**
   * Passages followed together in a round, their names pooled (a name in a better-ranked
   * passage, or in several, weighs more). Default 1.
   */
  width?: number;
  /** Names followed per round. Default 4. */
  namesPerRound?: number;
  /** Weight of the question's words beside a name (see expansionEntities). Default 30. */
  contextWeight?: number;
  /**
   * Stop following once the followed passages hold at least this share of the question's terms:
   * what is asked is then answered where the question points, and names would only lead away from
   * it (one article's paragraphs all name each other). Default: never stop early.
   */
  answeredShare?: number;
  /** Whether years and numbers count as names. Default true. */
  numbers?: boolean;
  /** Links taken per name, best first, followed passages skipped. Default all. */
  linksPerName?: number;
  /**
   * A linked passage's new score. Default: the score of the passage that named it × the name's
   * weight × the link's score as a share of the name's best link, if that is more than it has.
   */
  raise?(link: HopLinkInput): number;
}

export interface HopLinkInput {
  id: number;
  current: number;
  /** The followed passage that holds the name (the first such of its round). */
  from: number;
  fromScore: number;
  /** Position of `from` in its round (0: the best). */
  fromPosition: number;
  name: ExpansionEntity;
  /** 0-based rank of the link among the name's links (followed passages counted). */
  rank: number;
  /** The link's score over the name's best link's. */
  share: number;
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
 * Multi-hop retrieval without an LLM (graph-aware expansion, the way HippoRAG and
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
  const state: HopExpansion = { scores, reached: new Map(), followed: [], entities: [] };
  const questionTerms = [...new Set(termsOf(options.question))];
  for (let round = 0; round < (options.rounds ?? 3); round++) {
    const from = bestUnfollowed(scores, state.followed, options.width ?? 1);
    if (from.length === 0) break;
    state.followed.push(...from);
    const followedText = state.followed.map((id) => source.text(id).toLowerCase()).join('\n');
    const open = questionTerms.filter((term) => !followedText.includes(term));
    if (
      options.answeredShare !== undefined &&
      questionTerms.length > 0 &&
      1 - open.length / questionTerms.length >= options.answeredShare
    )
      break;
    const unanswered = open.join(' ');
    const names = expansionEntities({
      query: options.question,
      texts: from.map((id) => source.text(id)),
      names: source.names ? from.map((id) => source.names!(id)) : undefined,
      exclude: from.flatMap((id) => source.exclude?.(id) ?? []),
      contextWeight: options.contextWeight ?? 30,
      numbers: options.numbers,
      max: options.namesPerRound ?? 4,
    });
    for (const name of names) followName({ options, state, name, from, unanswered });
  }
  return state;
}

function followName(input: {
  options: HopExpansionOptions;
  state: HopExpansion;
  name: ExpansionEntity;
  from: readonly number[];
  unanswered: string;
}): void {
  const { options, state, name } = input;
  const links = options.source.linked(name.text, `${name.text} ${input.unanswered}`);
  const top = links.reduce((max, link) => Math.max(max, link.score), 0);
  const fromPosition = Math.max(
    0,
    input.from.findIndex((id) => options.source.text(id).includes(name.text)),
  );
  const from = input.from[fromPosition]!;
  let taken = 0;
  for (const [rank, link] of links.entries()) {
    if (taken >= (options.linksPerName ?? Number.POSITIVE_INFINITY)) break;
    if (state.followed.includes(link.id)) continue;
    taken++;
    const current = state.scores.get(link.id) ?? 0;
    const input = {
      id: link.id,
      current,
      from,
      fromScore: state.scores.get(from)!,
      fromPosition,
      name,
      rank,
      share: top > 0 ? link.score / top : 1,
    };
    const raised = options.raise ? options.raise(input) : Math.max(current, raisedTo(input));
    if (raised <= current) continue;
    state.scores.set(link.id, raised);
    if (!options.raise || !state.reached.has(link.id))
      state.reached.set(link.id, { from, entity: name.text, rank: rank + 1, gain: raised - current });
  }
  if (taken > 0) state.entities.push(name.text);
}

function raisedTo(link: HopLinkInput): number {
  return link.fromScore * link.name.weight * link.share;
}

/** The `width` best passages with a score that are not followed yet, best first. */
function bestUnfollowed(
  scores: ReadonlyMap<number, number>,
  followed: readonly number[],
  width: number,
): number[] {
  return [...scores]
    .filter(([id, score]) => score > 0 && !followed.includes(id))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, width)
    .map(([id]) => id);
}

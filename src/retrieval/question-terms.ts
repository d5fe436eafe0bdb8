import { stem, termsOf } from './tokenize.js';

export interface WeightedTerm {
  term: string;
  weight: number;
}

export interface QuestionTermOptions {
  /**
   * The page's topic (its title or first heading). Question terms found there name what the whole
   * page is about, so they tell its passages apart poorly ("harry potter" on the Harry Potter page):
   * they keep only this share of their weight. Default 0.35.
   */
  topic?: string;
  topicWeight?: number;
  /** Weight of related words from the generic relation table ("mom" → "mother"). Default 0.5. */
  relatedWeight?: number;
}

/**
 * Generic English relations between question words and the words pages use for the same thing:
 * kinship, cast and role verbs, release and start/end events. Questions are phrased casually
 * ("who plays", "when did it come out") while reference pages say "portrayed by", "premiered".
 * Each group lists words that may stand for one another.
 */
const relatedGroups: readonly string[] = [
  'mom mum mother',
  'dad father',
  'parent mother father',
  'kid child son daughter children',
  'wife husband spouse married',
  'sibling brother sister',
  'grandma grandmother',
  'grandpa grandfather',
  'play portray voice star cast actor actress role',
  'voice voiced',
  'sing singer sang sung perform vocal',
  'release premiere debut air launch publish',
  'start begin began commence premiere first',
  'end finish final conclude last',
  'die death dead killed',
  'born birth',
  'write wrote written author',
  'direct director directed',
  'win won winner champion victory',
  'new latest current recent',
  'make made built construct',
  'film movie',
];

/**
 * Phrases, and question words that say what kind of answer is wanted, with the words pages use
 * beside such an answer: "where was it filmed" is answered by a "Production location" row or
 * "located in".
 */
const relatedPhrases: ReadonlyArray<[RegExp, string]> = [
  [/\bwhere\b/, 'location located place site'],
  [/\bcome out\b/, 'release premiere publish air'],
  [/\bcame out\b/, 'release premiere publish air'],
  [/\btake place\b/, 'set located'],
  [/\btook place\b/, 'set located'],
];

const relatedByStem = buildRelatedTable();

function buildRelatedTable(): Map<string, string[]> {
  const table = new Map<string, Set<string>>();
  for (const group of relatedGroups) {
    const stems = group.split(' ').map(stem);
    for (const word of stems) {
      const related = table.get(word) ?? new Set<string>();
      for (const other of stems) if (other !== word) related.add(other);
      table.set(word, related);
    }
  }
  return new Map([...table].map(([word, related]) => [word, [...related]]));
}

/**
 * The question's terms, each with a weight: 1 for ordinary terms, less for terms that are the
 * page's topic, and a lower weight for related words the question did not use.
 */
export function weightedQuestionTerms(question: string, options: QuestionTermOptions = {}): WeightedTerm[] {
  const topicTerms = new Set(termsOf(options.topic ?? ''));
  const topicWeight = options.topicWeight ?? 0.35;
  const relatedWeight = options.relatedWeight ?? 0.5;
  const weights = new Map<string, number>();
  const own = new Set(termsOf(question));
  for (const term of own) weights.set(term, topicTerms.has(term) ? topicWeight : 1);
  const addRelated = (term: string) => {
    if (own.has(term) || weights.has(term)) return;
    weights.set(term, topicTerms.has(term) ? topicWeight * relatedWeight : relatedWeight);
  };
  for (const term of own) for (const related of relatedByStem.get(term) ?? []) addRelated(related);
  const lower = question.toLowerCase();
  for (const [phrase, related] of relatedPhrases) {
    if (phrase.test(lower)) for (const word of related.split(' ')) addRelated(stem(word));
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}

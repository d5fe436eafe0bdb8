import { termsOf } from './tokenize.js';

export interface ExpansionEntity {
  /** The name as written, e.g. "University of Oxford". */
  text: string;
  /** Relative weight in (0, 1]: seen in better-ranked and in more seed texts. */
  weight: number;
}

/** Lower-case words that may sit inside a name: "University of Oxford", "Lord of the Rings". */
export const connectors: ReadonlySet<string> = new Set([
  'of',
  'the',
  'de',
  'du',
  'la',
  'le',
  'von',
  'van',
  'der',
  'and',
  'for',
  'in',
  'on',
  "'s",
]);
const namePart = /^(?:\p{Lu}[\p{L}\p{M}\p{N}'’.&-]*|\p{N}+[\p{L}]*)$/u;
const numberLike = /^\p{N}[\p{N}.,]*(?:s|st|nd|rd|th)?$/u;
const quotedTitle = /["“«]([^"”»\n]{2,80})["”»]/gu;

/**
 * Graph-aware expansion without an LLM (secondary searches for the names found): the named entities of the
 * best-ranked texts, i.e. runs of capitalised words (with "of", "the"... inside) and quoted
 * titles, minus those the query already names. A multi-hop question's second paragraph often
 * shares no word with the question but is about a name the first paragraph mentions; searching
 * for that name reaches it. One function, two users: the knowledge base's secondary full-text
 * searches and snippet selection on long pages.
 */
export function expansionEntities(options: {
  query: string;
  /** Seed texts, best first. */
  texts: readonly string[];
  /** Names known for a text (from an LLM analysis): used instead of finding them in it. */
  names?: ReadonlyArray<readonly string[] | undefined>;
  /** Names already covered (e.g. the seeds' own titles): left out. */
  exclude?: readonly string[];
  /**
   * How much a name gains from the question words around it: its weight is multiplied by
   * 1 + contextWeight × (share of the query's terms in the sentence naming it). Default 0.
   */
  contextWeight?: number;
  /** Whether numbers ("1987", "11th") count as names (default true); see namesIn. */
  numbers?: boolean;
  max?: number;
}): ExpansionEntity[] {
  const queryTerms = new Set(termsOf(options.query));
  const excluded = new Set((options.exclude ?? []).map((name) => termsOf(name).join(' ')));
  const weights = new Map<string, { text: string; weight: number }>();
  options.texts.forEach((text, rank) => {
    const seedWeight = 1 / (1 + rank);
    const seen = new Set<string>();
    const sentences = options.contextWeight ? sentenceTerms(text) : [];
    for (const name of options.names?.[rank] ?? namesIn(text, { numbers: options.numbers })) {
      const terms = termsOf(name);
      if (terms.length === 0) continue;
      // A name made only of query words is what the first search already looked for.
      if (terms.every((term) => queryTerms.has(term))) continue;
      const key = terms.join(' ');
      if (excluded.has(key) || seen.has(key)) continue;
      seen.add(key);
      const entry = weights.get(key) ?? { text: name, weight: 0 };
      // Longer names are more specific, so they are worth a search more than a lone word.
      const context = options.contextWeight
        ? options.contextWeight * queryShare(name, sentences, queryTerms)
        : 0;
      entry.weight += seedWeight * (terms.length > 1 ? 1 : 0.6) * (1 + context);
      weights.set(key, entry);
    }
  });
  const ranked = [...weights.values()].sort((a, b) => b.weight - a.weight).slice(0, options.max ?? 8);
  const top = ranked[0]?.weight ?? 1;
  return ranked.map((entry) => ({ text: entry.text, weight: entry.weight / top }));
}

function sentenceTerms(text: string): Array<{ text: string; terms: Set<string> }> {
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}"“])/u)
    .map((sentence) => ({ text: sentence, terms: new Set(termsOf(sentence)) }));
}

/** The largest share of the query's terms in one sentence that holds the name. */
function queryShare(
  name: string,
  sentences: ReadonlyArray<{ text: string; terms: Set<string> }>,
  queryTerms: ReadonlySet<string>,
): number {
  if (queryTerms.size === 0) return 0;
  let best = 0;
  for (const sentence of sentences) {
    if (!sentence.text.includes(name)) continue;
    let shared = 0;
    for (const term of queryTerms) if (sentence.terms.has(term)) shared++;
    best = Math.max(best, shared / queryTerms.size);
  }
  return best;
}

/**
 * Capitalised runs and quoted titles, in text order (a sentence's first word only inside a run;
 * withoutOpener: such a run is also offered without that word, for questions; numbers: false leaves
 * out years, counts and ordinals, which a knowledge base search finds everywhere; inside one page a
 * year near the question's words is still a lead, so selectSnippets keeps them).
 */
export function namesIn(
  text: string,
  options: { withoutOpener?: boolean; numbers?: boolean } = {},
): string[] {
  // A line break ends a name: a heading, a list item or a table row is not one run with the next.
  if (text.includes('\n')) return text.split('\n').flatMap((line) => namesIn(line, options));
  const names: string[] = [];
  for (const match of text.matchAll(quotedTitle)) names.push(match[1]!.trim());
  const words = text.split(/[\s,;:()[\]{}!?]+/u);
  let run: string[] = [];
  let sentenceStart = true;
  const flush = () => {
    while (run.length > 0 && connectors.has(run[run.length - 1]!.toLowerCase())) run.pop();
    // A lone capitalised word that opens a sentence is usually just the sentence's first word.
    if (run.length > 1 || (run.length === 1 && !run[0]!.startsWith('\u0000'))) {
      const words = run.map((word) =>
        word
          .replace(/\u0000/g, '')
          .replace(/['’]s$/u, '')
          .replace(/[.'’]+$/u, ''),
      );
      if (words.join(' ').length > 1) names.push(words.join(' '));
      // "Are Local H ...": a question's first word is capitalised anyway, so the run without it too.
      const rest = words.slice(1);
      if (
        options.withoutOpener &&
        run[0]!.startsWith('\u0000') &&
        rest.length > 0 &&
        !numberLike.test(rest[0]!)
      )
        names.push(rest.join(' '));
      // "Maria Okafor of Northwind Consulting" may be one name or two: offer the parts as well.
      if (words.some((word) => connectors.has(word))) names.push(...splitAtConnectors(words));
      if (options.withoutOpener && run[0]!.startsWith('\u0000') && rest.some((word) => connectors.has(word)))
        names.push(...splitAtConnectors(rest));
    }
    run = [];
  };
  for (const raw of words) {
    if (!raw) continue;
    const endsSentence = /[.!?]["'”’)]?$/u.test(raw) && !/^\p{Lu}\.$/u.test(raw);
    const word = raw.replace(/^["“'‘«]+|["”'’»]+$/gu, '').replace(/[.]$/u, '');
    if (word && namePart.test(word) && !isCommonOpener(word)) {
      run.push(sentenceStart && run.length === 0 ? `\u0000${word}` : word);
    } else if (run.length > 0 && connectors.has(word.toLowerCase()) && !endsSentence) {
      run.push(word.toLowerCase());
    } else flush();
    if (endsSentence) flush();
    sentenceStart = endsSentence;
  }
  flush();
  if (options.numbers !== false) return names;
  // Years, counts and ordinals ("1987", "11th") are not names: a search for them finds anything.
  return names.filter(
    (name) => !name.split(' ').every((word) => numberLike.test(word) || connectors.has(word)),
  );
}

function splitAtConnectors(words: readonly string[]): string[] {
  const parts: string[] = [];
  let part: string[] = [];
  for (const word of [...words, 'of']) {
    if (!connectors.has(word)) {
      part.push(word);
      continue;
    }
    if (part.length > 0) parts.push(part.join(' '));
    part = [];
  }
  return parts;
}

const openers = new Set([
  'The',
  'A',
  'An',
  'In',
  'On',
  'At',
  'He',
  'She',
  'It',
  'They',
  'We',
  'I',
  'His',
  'Her',
  'Its',
  'Their',
  'This',
  'That',
  'These',
  'Those',
  'There',
  'After',
  'Before',
  'During',
  'When',
  'While',
  'As',
  'By',
  'For',
  'From',
  'With',
  'However',
  'Although',
  'Since',
  'But',
  'And',
  'Or',
  'If',
  'Of',
  'To',
]);

function isCommonOpener(word: string): boolean {
  return openers.has(word);
}

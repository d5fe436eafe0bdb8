// Query terms whose words are remembered; past this many, the memory starts again.
const maxRememberedTerms = 2000;

/**
 * The words a query term matches, as in the chunk scorer: at their start, with a short inflection
 * ("direct" finds "directed", "director"), numbers whole. Nothing is filed while texts are
 * tokenised: when a term is scored, the words added since are filed by first character, and the
 * term looks through those of its own first character that it has not seen yet (ids only grow,
 * and the agent asks the same terms at every step).
 */
export class TermWords {
  private readonly byFirstCharacter = new Map<number, number[]>();
  private filed = 0;
  private readonly known = new Map<string, { ids: number[]; seen: number }>();

  constructor(private readonly words: readonly string[]) {}

  /** Ids of the words `term` matches, in the order they were added. */
  matching(term: string): readonly number[] {
    this.fileNewWords();
    let known = this.known.get(term);
    if (!known) {
      if (this.known.size >= maxRememberedTerms) this.known.clear();
      known = { ids: [], seen: 0 };
      this.known.set(term, known);
    }
    const limit = term.length + (/\d/.test(term) ? 0 : term.length <= 3 ? 1 : 4);
    const candidates = this.byFirstCharacter.get(term.charCodeAt(0)) ?? [];
    for (let at = known.seen; at < candidates.length; at++) {
      const word = this.words[candidates[at]!]!;
      if (word.length >= term.length && word.length <= limit && word.startsWith(term))
        known.ids.push(candidates[at]!);
    }
    known.seen = candidates.length;
    return known.ids;
  }

  private fileNewWords(): void {
    for (; this.filed < this.words.length; this.filed++) {
      const first = this.words[this.filed]!.charCodeAt(0);
      const list = this.byFirstCharacter.get(first);
      if (list) list.push(this.filed);
      else this.byFirstCharacter.set(first, [this.filed]);
    }
  }
}

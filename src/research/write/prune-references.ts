import type { Reference } from '../../events/deep-search-result.js';

/**
 * The report's final numbering: references in order of first citation across the texts (summary
 * then sections), those no longer cited (a claim removed by the fact-check) dropped, so every
 * footnote resolves and every reference is used.
 */
export function pruneReferences(
  texts: readonly string[],
  references: readonly Reference[],
): { texts: string[]; references: Reference[] } {
  const order: number[] = [];
  for (const text of texts)
    for (const match of text.matchAll(/\[\^(\d+)\]/g)) {
      const index = Number(match[1]);
      if (references[index - 1] && !order.includes(index)) order.push(index);
    }
  const renumber = new Map(order.map((index, at) => [index, at + 1]));
  return {
    texts: texts.map((text) =>
      text.replace(/\[\^(\d+)\]/g, (_match, number: string) => {
        const index = renumber.get(Number(number));
        return index === undefined ? '' : `[^${index}]`;
      }),
    ),
    references: order.map((index, at) => ({ ...references[index - 1]!, index: at + 1 })),
  };
}

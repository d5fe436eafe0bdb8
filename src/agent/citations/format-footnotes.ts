import type { Reference } from '../../events/deep-search-result.js';
import { describeAlsoAt } from '../../retrieval/page-groups.js';

const marker = /\[\^(\d+)\]/g;
const definitionLine = /^\s*\[\^\d+\]:.*$/gm;

/**
 * Rewrites the answer's footnote markers to match the verified references exactly: markers of
 * dropped references removed, kept ones renumbered in order of first appearance, references the
 * text never cites appended as markers at the end. Returns the references reordered to match.
 */
export function alignFootnotes(
  answer: string,
  references: Reference[],
  renumber: Map<number, number>,
): { answer: string; references: Reference[] } {
  const body = answer.replace(definitionLine, '').trimEnd();
  const order: number[] = [];
  for (const match of body.matchAll(marker)) {
    const kept = renumber.get(Number(match[1]));
    if (kept !== undefined && !order.includes(kept)) order.push(kept);
  }
  for (const reference of references) if (!order.includes(reference.index)) order.push(reference.index);
  const finalIndex = new Map(order.map((index, position) => [index, position + 1]));
  const cited = new Set<number>();
  let text = body.replace(marker, (_match, number: string) => {
    const kept = renumber.get(Number(number));
    if (kept === undefined) return '';
    const index = finalIndex.get(kept)!;
    cited.add(index);
    return `[^${index}]`;
  });
  text = text.replace(/(\[\^\d+\])(?:\1)+/g, '$1').replace(/[ \t]+([.,;:!?])/g, '$1');
  const missing = order.map((_, position) => position + 1).filter((index) => !cited.has(index));
  if (missing.length > 0) text = `${text}${missing.map((index) => `[^${index}]`).join('')}`;
  const reordered = order.map((index, position) => ({
    ...references.find((reference) => reference.index === index)!,
    index: position + 1,
  }));
  return { answer: text, references: reordered };
}

/** The answer with its footnote definitions, as markdown for people and chat clients. */
export function renderAnswerMarkdown(answer: string, references: readonly Reference[]): string {
  if (references.length === 0) return answer;
  const definitions = references.map((reference) => {
    const alsoAt = describeAlsoAt(reference.alsoAt);
    return `[^${reference.index}]: "${reference.quote.replace(/\s+/g, ' ')}" [${reference.title}](${reference.url})${alsoAt ? ` (${alsoAt})` : ''}`;
  });
  return `${answer}\n\n${definitions.join('\n')}`;
}

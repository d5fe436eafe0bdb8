import { alignFootnotes } from '../../agent/citations/format-footnotes.js';
import { verifyReferences } from '../../agent/citations/verify-references.js';
import type { AgentState } from '../../agent/state/agent-state.js';
import type { Reference } from '../../events/deep-search-result.js';

const marker = /\[\^(\d+)\]/g;

/**
 * Turns text the writer cited with [^n] (n = a number in `sources`) into text whose footnotes
 * index verified references: each cited quote is checked again against the page store of the
 * task, exactly as deep search checks an answer's quotes; markers of unknown numbers or of
 * quotes that cannot be found are removed. Only cited sources are kept.
 */
export function citeSources(
  state: AgentState,
  markdown: string,
  sources: readonly Reference[],
): { markdown: string; references: Reference[] } {
  const byIndex = new Map(sources.map((source) => [source.index, source]));
  const order: number[] = [];
  for (const match of markdown.matchAll(marker)) {
    const number = Number(match[1]);
    if (byIndex.has(number) && !order.includes(number)) order.push(number);
  }
  const position = new Map(order.map((number, at) => [number, at + 1]));
  const numbered = markdown.replace(marker, (_match, number: string) => {
    const at = position.get(Number(number));
    return at === undefined ? '' : `[^${at}]`;
  });
  const proposed = order.map((number) => {
    const source = byIndex.get(number)!;
    return { url: source.url, quote: source.quote };
  });
  const verified = verifyReferences(state, numbered, proposed);
  const aligned = alignFootnotes(numbered, verified.references, verified.renumber);
  return { markdown: tidy(aligned.answer), references: aligned.references };
}

/** Removes the spaces a dropped marker leaves behind. */
export function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/(\S)[ \t]{2,}(?=\S)/g, '$1 ')
    .trim();
}

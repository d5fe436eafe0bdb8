import type { Reference } from '../../events/deep-search-result.js';
import { countIndependentSources } from '../../retrieval/page-groups.js';
import type { AgentState } from '../state/agent-state.js';

/** How many independent sources the references are: copies of one story (page groups) count once. */
export function independentSources(state: AgentState, references: readonly Reference[]): number {
  return countIndependentSources(
    references.map((reference) => reference.url),
    state.pages.grouping(),
  );
}

/** "3 verified quotes from 2 independent sources (1 more site carries the same text)", for a confidence reason. */
export function describeQuotes(state: AgentState, references: readonly Reference[]): string {
  const quotes = references.length;
  if (quotes === 0) return 'no verified quotes';
  const sources = independentSources(state, references);
  const cited = new Set(references.map((reference) => reference.url));
  const copies = new Set(
    references.flatMap((reference) => reference.alsoAt ?? []).filter((url) => !cited.has(url)),
  ).size;
  const also = copies ? ` (${copies} more site${copies === 1 ? ' carries' : 's carry'} the same text)` : '';
  return `${quotes} verified quote${quotes === 1 ? '' : 's'} from ${sources} independent source${sources === 1 ? '' : 's'}${also}`;
}
